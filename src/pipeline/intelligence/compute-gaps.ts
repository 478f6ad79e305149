/**
 * Knowledge gaps, in SQL over the claim facts (facts.ts) and the contradictions just computed,
 * inside the refresh transaction. Five kinds:
 * - no_human_trial: an intervention that extends lifespan or healthspan in some non-human organism,
 *   and that no human trial studies (no human_trial paper links it as studied or claims about it);
 * - single_paper: a finding (subject, object and direction, both sides resolved) that one paper states;
 * - single_organism: a finding that two or more papers state, all in the same non-human organism;
 * - declining_attention: a hallmark or topic whose aging-biology papers (relevance 2 or more) in the
 *   last 30 days are fewer than half of what its earlier rate predicts (at least 5 expected, and at
 *   least 30 days of earlier history);
 * - disputed_finding: each contradiction group (claims whose papers disagree), linked to it.
 * Scores as scoring.ts says; ids are stable hashes of what the gap is about.
 */
import { createHash } from 'node:crypto'
import { sql, type SQL } from 'drizzle-orm'
import { executeRows, type Db } from '../../db/client'
import type { GapSeries } from '../../db/schema'
import { TOPIC_INFO } from '../../taxonomy'
import { HUMAN_KEY } from './vocabulary'

const gapId = (kind: string, what: string) => sql.raw(`'g' || substr(md5('${kind}|' || ${what}), 1, 16)`)
const LIFESPAN = sql`(f.o_key in ('phenotype:lifespan', 'phenotype:healthspan') or f.relation in ('extends_lifespan',
  'extends_healthspan'))`
const GAP_COLUMNS =
  sql.raw(`id, kind, score, subject_key, subject_label, subject_entity_id, object_key, object_label, object_entity_id,
  counts, details, paper_ids, topics, entity_keys, contradiction_id`)

export const RECENT_DAYS = 30
const MIN_EXPECTED = 5

export async function computeGaps(tx: Db, reference: string | null): Promise<void> {
  await tx.execute(sql`delete from knowledge_gaps`)
  await noHumanTrial(tx)
  await singleSource(tx)
  if (reference) await decliningAttention(tx, reference)
  await tx.execute(sql`
    insert into knowledge_gaps (${GAP_COLUMNS})
    select ${gapId('disputed_finding', 'g.id')}, 'disputed_finding', g.score, g.subject_key, g.subject_label,
      g.subject_entity_id,
      g.object_key, g.object_label, g.object_entity_id,
      jsonb_build_object('papers_increase', g.papers_increase, 'papers_decrease', g.papers_decrease,
        'claims_increase', g.claims_increase, 'claims_decrease', g.claims_decrease, 'organisms',
          cardinality(g.organism_keys)),
      jsonb_build_object('organisms', g.organisms),
      array[best.a_paper, best.b_paper], g.topics, g.entity_keys, g.id
    from contradiction_groups g
    join (
      select distinct on (group_id) group_id, a_paper, b_paper from intel_pairs order by group_id, score desc, a_claim,
        b_claim
    ) best on best.group_id = g.id`)
}

async function noHumanTrial(tx: Db): Promise<void> {
  await tx.execute(sql`
    insert into knowledge_gaps (${GAP_COLUMNS})
    select ${gapId('no_human_trial', 'a.s_key')}, 'no_human_trial',
      round(((1 - power(0.5, a.papers / 3.0)) * (0.6 + 0.4 * least(1, (a.organisms - 1) / 2.0)))::numeric, 6)::float8,
      a.s_key, a.s_label, a.s_entity, null, null, null,
      jsonb_build_object('animal_papers', a.papers, 'animal_claims', a.claims, 'organisms', a.organisms, 'human_trials',
        0,
        'human_observational_papers', (select count(distinct pe.paper_id) from paper_entities pe join papers p on p.id =
          pe.paper_id
          where pe.entity_id = a.s_entity and pe.role = 'studied' and p.study_type = 'human_observational')),
      jsonb_build_object('organisms', a.organism_labels), a.paper_ids, a.topics, array[a.s_key], null
    from (
      select s_key, min(s_label) as s_label, max(s_entity) as s_entity, count(distinct paper_id) as papers, sum(claims)
        as claims,
        count(distinct org_key) as organisms, array_agg(distinct org_label) as organism_labels,
        coalesce(array_agg(distinct topic) filter (where topic is not null), '{}') as topics,
        (array_agg(paper_id order by best desc, paper_id))[1:3] as paper_ids
      from (
        select f.s_key, f.s_label, f.s_entity, f.paper_id, f.org_key, min(f.org_label) as org_label, f.topic,
          count(*) as claims, max(f.weight) as best
        from intel_facts f
        where f.s_type = 'intervention' and f.pol > 0 and f.org_key is not null and f.org_key <> ${HUMAN_KEY} and
          ${LIFESPAN}
        group by f.s_key, f.s_label, f.s_entity, f.paper_id, f.org_key, f.topic
      ) per_paper
      group by s_key
    ) a
    where not exists (
      select 1 from paper_entities pe join papers p on p.id = pe.paper_id
      where pe.entity_id = a.s_entity and pe.role = 'studied' and p.study_type = 'human_trial'
    ) and not exists (
      select 1 from claims c join papers p on p.id = c.paper_id where c.subject_entity_id = a.s_entity and p.study_type
        = 'human_trial'
    )`)
}

/** single_paper and single_organism: findings with both sides resolved, by how widely they are backed. */
async function singleSource(tx: Db): Promise<void> {
  await tx.execute(sql`create temp table intel_findings on commit drop as
    select s_key, o_key, pol, min(s_label) as s_label, max(s_entity) as s_entity, min(o_label) as o_label, max(o_entity)
      as o_entity,
      count(distinct paper_id) as papers, count(*) as claims, count(distinct org_key) as organisms,
      count(*) filter (where org_key is null) as no_organism, min(org_key) as org_key, min(org_label) as org_label,
      max(weight) as best, coalesce(max(newsworthiness), 0) as news, (array_agg(relation order by weight desc,
        claim_id))[1] as relation,
      coalesce(array_agg(distinct topic) filter (where topic is not null), '{}') as topics,
      (array_agg(paper_id order by weight desc, claim_id))[1:6] as paper_ids
    from intel_facts where s_entity is not null and o_entity is not null
    group by s_key, o_key, pol`)
  const details = sql.raw(
    `jsonb_build_object('direction', case when pol > 0 then 'increase' else 'decrease' end, 'relation', ` +
      `relation,
    'organism', org_label)`,
  )
  await tx.execute(sql`
    insert into knowledge_gaps (${GAP_COLUMNS})
    select ${gapId('single_paper', `s_key || '|' || o_key || '|' || pol`)}, 'single_paper',
      round((best * (0.5 + news / 6))::numeric, 6)::float8, s_key, s_label, s_entity, o_key, o_label, o_entity,
      jsonb_build_object('papers', papers, 'claims', claims, 'organisms', organisms), ${details}, paper_ids[1:1],
        topics,
      array[s_key, o_key], null
    from intel_findings where papers = 1`)
  await tx.execute(sql`
    insert into knowledge_gaps (${GAP_COLUMNS})
    select ${gapId('single_organism', `s_key || '|' || o_key || '|' || pol`)}, 'single_organism',
      round(((1 - power(0.5, papers / 2.0)) * sqrt(best))::numeric, 6)::float8, s_key, s_label, s_entity, o_key,
        o_label, o_entity,
      jsonb_build_object('papers', papers, 'claims', claims, 'organisms', 1), ${details}, paper_ids, topics,
      array[s_key, o_key], null
    from intel_findings where papers >= 2 and organisms = 1 and no_organism = 0 and org_key <> ${HUMAN_KEY}`)
}

type AreaCount = {
  area: string
  key: string
  name: string
  recent: number
  history: number
  topics: string[] | null
  paper_ids: string[]
}

/** Hallmarks and topics whose recent papers fall well short of their earlier rate. */
async function decliningAttention(tx: Db, reference: string): Promise<void> {
  const [span] = await executeRows<{ first: string | null }>(
    tx,
    sql`select min(indexed_date)::text as first from papers`,
  )
  const recentStart = addDays(reference, -(RECENT_DAYS - 1))
  const historyDays = span?.first ? daysBetween(span.first, recentStart) : 0
  if (historyDays < RECENT_DAYS) return
  const areas = await executeRows<AreaCount>(
    tx,
    sql`
    select 'topic' as area, t.topic as key, t.topic as name, t.recent::int, t.history::int, array[t.topic] as topics,
      array(select p.id from papers p where p.topic = t.topic and p.relevance >= 2 and p.indexed_date <
        ${recentStart}::date
        order by p.indexed_date desc, p.id limit 3) as paper_ids
    from (
      select topic, count(*) filter (where indexed_date >= ${recentStart}::date) as recent,
        count(*) filter (where indexed_date < ${recentStart}::date) as history
      from papers where relevance >= 2 and topic is not null and topic <> 'other' and indexed_date <= ${reference}::date
        group by topic
    ) t
    union all
    select 'hallmark', h.key, h.name, h.recent::int, h.history::int, h.topics,
      array(select pe.paper_id from paper_entities pe join papers p on p.id = pe.paper_id
        where pe.entity_id = h.id and p.relevance >= 2 and pe.indexed_date < ${recentStart}::date
        order by pe.indexed_date desc, pe.paper_id limit 3)
    from (
      select e.id, e.key, e.name,
        count(distinct pe.paper_id) filter (where pe.indexed_date >= ${recentStart}::date) as recent,
        count(distinct pe.paper_id) filter (where pe.indexed_date < ${recentStart}::date) as history,
        coalesce(array_agg(distinct p.topic) filter (where p.topic is not null), '{}') as topics
      from entities e
      join paper_entities pe on pe.entity_id = e.id
      join papers p on p.id = pe.paper_id and p.relevance >= 2
      where e.type = 'hallmark' and pe.indexed_date <= ${reference}::date
      group by e.id, e.key, e.name
    ) h`,
  )
  for (const a of areas) {
    const expected = (a.history * RECENT_DAYS) / historyDays
    if (expected < MIN_EXPECTED || a.recent >= expected / 2) continue
    const score = Math.round((1 - a.recent / expected) * Math.min(1, expected / 20) * 1e6) / 1e6
    const entityKey = a.area === 'hallmark' ? `hallmark:${a.key}` : null
    const series = await attentionSeries(tx, a, reference, span!.first!)
    const counts = {
      recent_papers: a.recent,
      history_papers: a.history,
      expected_recent: Math.round(expected),
      recent_days: RECENT_DAYS,
      history_days: historyDays,
    }
    await tx.execute(sql`insert into knowledge_gaps (${GAP_COLUMNS}, series) values (
      ${hashedId('g', `declining_attention|${a.area}:${a.key}`)}, 'declining_attention', ${score},
      ${entityKey ?? `topic:${a.key}`},
        ${a.area === 'topic' ? (TOPIC_INFO.find((t) => t.slug === a.key)?.name ?? a.key) : a.name}, null, null, null,
        null,
      ${JSON.stringify(counts)}::jsonb,
      ${JSON.stringify({ area: a.area, recent_start: recentStart, reference_date: reference })}::jsonb,
      ${sql.param(a.paper_ids)}::text[], ${sql.param(a.topics ?? [])}::text[],
        ${sql.param(entityKey ? [entityKey] : [])}::text[], null,
      ${JSON.stringify(series)}::jsonb)`)
  }
}

/**
 * A declining-attention gap's series: papers per PERIOD_DAYS ending at the reference date, at most SERIES_PERIODS of
 * them.
 */
export const PERIOD_DAYS = 10
export const SERIES_PERIODS = 36

/**
 * The papers of an area (the same ones the gap counts: aging biology, relevance 2 or more) per period
 * of PERIOD_DAYS, the last ending on the reference date, so the recent window is exactly its last
 * RECENT_DAYS / PERIOD_DAYS periods; the oldest period starts no earlier than the first paper, and
 * at most SERIES_PERIODS are kept (the counts of a longer history stay whole in history_papers).
 */
async function attentionSeries(tx: Db, a: AreaCount, reference: string, first: string): Promise<GapSeries> {
  const oldest = Math.min(SERIES_PERIODS - 1, Math.floor(daysBetween(first, reference) / PERIOD_DAYS))
  const from = addDays(reference, -(oldest * PERIOD_DAYS + PERIOD_DAYS - 1))
  const bucket = (column: SQL) => sql`((${reference}::date - ${column}) / ${PERIOD_DAYS})::int`
  const rows = await executeRows<{ bucket: number; papers: number }>(
    tx,
    a.area === 'topic'
      ? sql`select ${bucket(sql`indexed_date`)} as bucket, count(*)::int as papers from papers
        where topic = ${a.key} and relevance >= 2 and indexed_date between ${from}::date and ${reference}::date group by
          1`
      : sql`select ${bucket(sql`pe.indexed_date`)} as bucket, count(distinct pe.paper_id)::int as papers
        from paper_entities pe join entities e on e.id = pe.entity_id join papers p on p.id = pe.paper_id and
          p.relevance >= 2
        where e.type = 'hallmark' and e.key = ${a.key} and pe.indexed_date between ${from}::date and ${reference}::date
          group by 1`,
  )
  const byBucket = new Map(rows.map((r) => [Number(r.bucket), Number(r.papers)]))
  const periods = Array.from({ length: oldest + 1 }, (_, i) => {
    const k = oldest - i
    const start = addDays(reference, -(k * PERIOD_DAYS + PERIOD_DAYS - 1))
    return {
      start: start < first ? first : start,
      end: addDays(reference, -k * PERIOD_DAYS),
      papers: byBucket.get(k) ?? 0,
    }
  })
  return { period_days: PERIOD_DAYS, recent_periods: RECENT_DAYS / PERIOD_DAYS, periods }
}

/** The id SQL would give: a prefix and 16 hex digits of md5. */
const hashedId = (prefix: string, what: string) => prefix + createHash('md5').update(what).digest('hex').slice(0, 16)

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)
}
