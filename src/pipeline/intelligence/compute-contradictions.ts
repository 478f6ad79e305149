/**
 * Contradictions from the claim facts (facts.ts), in SQL, inside the refresh transaction.
 *
 * Two claims contradict when they come from different papers, have the same subject and object
 * keys and the same organism (claims naming none are left out), point opposite ways, and their
 * conditions are comparable: for each of sex, dose, tissue and condition, either one claim does not
 * state it or both state the same value. A claim's conditions form its signature; comparability
 * depends on signatures only, so the work is done per signature rather than per claim pair (which
 * would be millions of rows for a well-studied pair such as rapamycin and lifespan):
 * 1. cells: (subject, object, organism) with claims both ways;
 * 2. candidates: per cell, direction and signature, the heaviest claim and the heaviest from another
 *    paper (the best pair of two signatures from different papers is always among these);
 * 3. pairs: for each two comparable signatures, their best pair of candidates from different papers;
 * 4. groups: per (subject, object), counted over the claims whose signature takes part in a pair.
 * Scores as scoring.ts says.
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client'

const comparable = (column: string) =>
  sql.raw(`(a.${column} is null or b.${column} is null or a.${column} = b.${column})`)
const groupId = sql.raw(`'c' || substr(md5(s_key || '|' || o_key), 1, 16)`)

export async function computeContradictions(tx: Db): Promise<void> {
  await tx.execute(sql`create temp table intel_cand on commit drop as select * from intel_facts limit 0`)
  await tx.execute(sql`
    insert into intel_cand
    select claim_id, paper_id, relation, s_key, s_label, s_entity, s_type, o_key, o_label, o_entity, o_type, org_key,
      org_label,
      pol, sex, dose, tissue, cond, sig, weight, topic, study_type, indexed, newsworthiness
    from (
      select f.*, row_number() over (partition by s_key, o_key, org_key, pol, sig, paper_id = top_paper order by weight
        desc, claim_id) as rn
      from (
        select f.*, first_value(f.paper_id) over (partition by f.s_key, f.o_key, f.org_key, f.pol, f.sig order by
          f.weight desc, f.claim_id) as top_paper
        from intel_facts f
        join (
          select s_key, o_key, org_key from intel_facts where org_key is not null
          group by s_key, o_key, org_key having min(pol) < 0 and max(pol) > 0
        ) cell using (s_key, o_key, org_key)
      ) f
    ) ranked
    where rn = 1`)

  await tx.execute(sql`create temp table intel_pairs (
    group_id text not null, s_key text not null, o_key text not null, org_key text not null, org_label text not null,
    a_sig text not null, b_sig text not null, conditions jsonb not null,
    a_claim integer not null, b_claim integer not null, a_paper text not null, b_paper text not null,
    a_weight float8 not null, b_weight float8 not null, score float8 not null, topics text[] not null, latest date not
      null
  ) on commit drop`)
  await tx.execute(sql`
    insert into intel_pairs
    select distinct on (a.s_key, a.o_key, a.org_key, a.sig, b.sig)
      'c' || substr(md5(a.s_key || '|' || a.o_key), 1, 16),
      a.s_key, a.o_key, a.org_key, a.org_label, a.sig, b.sig,
      jsonb_strip_nulls(jsonb_build_object(
        'sex', case when a.sex = b.sex then a.sex end, 'dose', case when a.dose = b.dose then a.dose end,
        'tissue', case when a.tissue = b.tissue then a.tissue end, 'condition', case when a.cond = b.cond then a.cond
          end)),
      a.claim_id, b.claim_id, a.paper_id, b.paper_id, a.weight, b.weight,
      round(sqrt(a.weight * b.weight)::numeric, 6)::float8,
      array_remove(case when a.topic = b.topic then array[a.topic] else array[a.topic, b.topic] end, null),
      greatest(a.indexed, b.indexed)
    from intel_cand a
    join intel_cand b on b.s_key = a.s_key and b.o_key = a.o_key and b.org_key = a.org_key and b.pol < 0 and b.paper_id
      <> a.paper_id
    where a.pol > 0 and ${comparable('sex')} and ${comparable('dose')} and ${comparable('tissue')} and
      ${comparable('cond')}
    order by a.s_key, a.o_key, a.org_key, a.sig, b.sig, sqrt(a.weight * b.weight) desc, a.claim_id, b.claim_id`)

  // Claims whose signature takes part in at least one pair: the evidence each side of a group counts.
  await tx.execute(sql`create temp table intel_engaged on commit drop as
    select f.* from intel_facts f
    join (
      select distinct s_key, o_key, org_key, 1 as pol, a_sig as sig from intel_pairs
      union select distinct s_key, o_key, org_key, -1, b_sig from intel_pairs
    ) e on e.s_key = f.s_key and e.o_key = f.o_key and e.org_key = f.org_key and e.pol = f.pol and e.sig = f.sig`)

  await tx.execute(sql`delete from contradiction_pairs`)
  await tx.execute(sql`delete from contradiction_groups`)
  await tx.execute(sql`
    insert into contradiction_groups (id, subject_key, subject_label, subject_entity_id, object_key, object_label,
      object_entity_id,
      score, papers_increase, papers_decrease, claims_increase, claims_decrease, organism_keys, organisms, topics,
        entity_keys, latest_date)
    select ${groupId}, s_key, s_label, s_entity, o_key, o_label, o_entity,
      round((best * (0.5 + 0.5 * least(up, down)::float8 / greatest(up, down)))::numeric, 6)::float8,
      up, down, claims_up, claims_down, organism_keys, organisms, topics,
      array_remove(array[case when s_entity is not null then s_key end, case when o_entity is not null then o_key end],
        null),
      latest
    from (
      select e.s_key, e.o_key, min(e.s_label) as s_label, max(e.s_entity) as s_entity, min(e.o_label) as o_label,
        max(e.o_entity) as o_entity,
        count(distinct e.paper_id) filter (where e.pol > 0) as up, count(distinct e.paper_id) filter (where e.pol < 0)
          as down,
        count(*) filter (where e.pol > 0) as claims_up, count(*) filter (where e.pol < 0) as claims_down,
        coalesce(array_agg(distinct e.topic) filter (where e.topic is not null), '{}') as topics, max(e.indexed) as
          latest
      from intel_engaged e group by e.s_key, e.o_key
    ) g
    join (
      select s_key, o_key, max(score) as best, array_agg(org_key order by org_key) as organism_keys, array_agg(org_label
        order by org_key) as organisms
      from (select s_key, o_key, org_key, min(org_label) as org_label, max(score) as score from intel_pairs group by
        s_key, o_key, org_key) o
      group by s_key, o_key
    ) p using (s_key, o_key)`)
  await tx.execute(sql`
    insert into contradiction_pairs (group_id, score, organism_key, organism, conditions, increase_claim_id,
      decrease_claim_id,
      increase_weight, decrease_weight, topics, latest_date)
    select group_id, score, org_key, org_label, conditions, a_claim, b_claim, a_weight, b_weight, topics, latest from
      intel_pairs`)
}
