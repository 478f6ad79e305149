/**
 * The claim facts every intelligence computation starts from: one row per claim that points one
 * way (up or down), with its sides keyed (the resolved entity; else the lexicon entry whose name or
 * synonym the words are, when only one has it; else the normalised words), its
 * organism keyed (vocabulary.ts), the conditions it states, its weight (scoring.ts) and what the
 * paper adds (topic, study type, dates). Built once per refresh as a temporary table, dropped at
 * commit.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { claimWeightSql } from './scoring'
import { organismArrays, polarityArrays, sexArrays, termArrays } from './vocabulary'

/** Lower case, punctuation and runs of spaces as one space: 'IL-6  levels' and 'il 6 levels' key alike. */
const normalised = (column: SQL) => sql`btrim(regexp_replace(lower(${column}), '[[:space:][:punct:]]+', ' ', 'g'))`
/** A stated condition, or null: trimmed, lower case. (No regular expressions per row: there are millions.) */
const condition = (key: string) => sql`nullif(lower(btrim(c.context->>${key})), '')`

export async function buildFacts(tx: Db, reference: string): Promise<void> {
  await tx.execute(sql`create temp table intel_facts (
    claim_id integer not null, paper_id text not null, relation text not null,
    s_key text not null, s_label text not null, s_entity integer, s_type text,
    o_key text not null, o_label text not null, o_entity integer, o_type text,
    org_key text, org_label text, pol smallint not null,
    sex text, dose text, tissue text, cond text, sig text not null,
    weight float8 not null, topic text, study_type text, indexed date not null, newsworthiness float8
  ) on commit drop`)
  const [terms, types, keys] = termArrays()
  await tx.execute(sql`create temp table intel_terms on commit drop as select * from entities limit 0`)
  await tx.execute(sql`alter table intel_terms add column term text`)
  await tx.execute(sql`insert into intel_terms
    select e.*, t.term from unnest(${sql.param(terms)}::text[], ${sql.param(types)}::text[], ${sql.param(keys)}::text[])
      as t(term, type, key)
    join entities e on e.type = t.type and e.key = t.key`)
  await tx.execute(sql`insert into intel_facts ${factsQuery(reference)}`)
  await tx.execute(sql`analyze intel_facts`)
}

/** The facts, one row per claim that points one way. */
export function factsQuery(reference: string): SQL {
  const [terms, keys, labels] = organismArrays()
  const [relations, polarities] = polarityArrays()
  const [sexTerms, sexes] = sexArrays()
  // A sample size is read only when it is a plain number (models write "240", 240 or "about 240").
  const n = sql`(case when c.context->>'n' ~ '^[0-9]{1,9}(\\.[0-9]{1,6})?$' then (c.context->>'n')::float8 end)`
  const organismText = sql`nullif(btrim(c.organism), '')`
  return sql`
    select c.id, c.paper_id, lower(c.relation),
      coalesce(se.type || ':' || se.key, 'text:' || ${normalised(sql`c.subject_text`)}), coalesce(se.name,
        btrim(c.subject_text)), se.id, se.type,
      coalesce(oe.type || ':' || oe.key, 'text:' || ${normalised(sql`c.object_text`)}), coalesce(oe.name,
        btrim(c.object_text)), oe.id, oe.type,
      coalesce(om.key, 'text:' || lower(${organismText})), coalesce(om.label, ${organismText}),
      x.pol, sx.sex, x.dose, x.tissue, x.cond,
      concat_ws('|', coalesce(sx.sex, '-'), coalesce(x.dose, '-'), coalesce(x.tissue, '-'), coalesce(x.cond, '-')),
      ${claimWeightSql(reference, n)}, p.topic, p.study_type, p.indexed_date, p.newsworthiness
    from claims c
    join papers p on p.id = c.paper_id
    left join entities se0 on se0.id = c.subject_entity_id
    left join entities oe0 on oe0.id = c.object_entity_id
    left join intel_terms st on st.term = (case when c.subject_entity_id is null then lower(btrim(c.subject_text)) end)
    left join intel_terms ot on ot.term = (case when c.object_entity_id is null then lower(btrim(c.object_text)) end)
    cross join lateral (select coalesce(se0.id, st.id) as id, coalesce(se0.type, st.type) as type, coalesce(se0.key,
      st.key) as key,
      coalesce(se0.name, st.name) as name) se
    cross join lateral (select coalesce(oe0.id, ot.id) as id, coalesce(oe0.type, ot.type) as type, coalesce(oe0.key,
      ot.key) as key,
      coalesce(oe0.name, ot.name) as name) oe
    left join unnest(${sql.param(terms)}::text[], ${sql.param(keys)}::text[], ${sql.param(labels)}::text[]) as om(term,
      key, label)
      on om.term = lower(${organismText})
    left join unnest(${sql.param(relations)}::text[], ${sql.param(polarities)}::int[]) as rp(relation, pol) on
      rp.relation = lower(c.relation)
    left join unnest(${sql.param(sexTerms)}::text[], ${sql.param(sexes)}::text[]) as sx(term, sex) on sx.term =
      lower(btrim(c.context->>'sex'))
    cross join lateral (select
      case c.direction when 'increase' then 1 when 'decrease' then -1 when 'no_change' then 0 when 'mixed' then 0
        else coalesce(rp.pol, 0) end as pol,
      ${condition('dose')} as dose, ${condition('tissue')} as tissue, ${condition('condition')} as cond
    ) x
    where x.pol <> 0
      and (c.subject_entity_id is not null or ${normalised(sql`c.subject_text`)} <> '')
      and (c.object_entity_id is not null or ${normalised(sql`c.object_text`)} <> '')`
}
