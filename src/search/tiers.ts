/**
 * The PostgreSQL ranking: match tiers, then judgement. Every tier is a yes-or-no question an index
 * can answer, and within a tier papers follow `papers_relevance_idx` (relevance desc nulls last,
 * indexed_date desc, id). That is what lets a bounded search give exactly the ranking of every match:
 * the best n papers of a tier are the first n papers in that index order that belong to the tier.
 *
 *   0. the title holds the query tightly: its words side by side, in order ("rapamycin mice")
 *   1. the title holds the query
 *   2. the title holds some of the query's words
 *   3. the text (title and abstract) holds the query tightly
 *   4. the text holds the query
 *
 * The query is every reading of it merged (American, British, irregular plurals: geroscope_query_forms,
 * drizzle/*_search_title_abstract_folding.sql), so each tier holds the papers that say the query in any of its
 * spellings.
 * "Tightly" is geroscope_tsquery_tight (drizzle/*_search_tiers.sql): a quoted phrase is already tight; for one
 * word, a phrase alone, or OR, the tight query is the query itself and some tiers are empty.
 * -exclusions apply to the whole paper in every tier.
 *
 * A tier's next n papers are found by walking the next `walk` papers in index order (cheap, and
 * enough for a common query) or, when that walk does not yield n, from a GIN index: every candidate,
 * sorted (cheap for a rare query). Either way the answer is exact. A tier is looked at only when the
 * tiers before it gave fewer than n. The walk is written out rather than left to the planner, which
 * misjudges how often words occur together (a bitmap scan over the 100,000 papers holding "dietary"
 * and "restriction" took 2 s where the walk takes milliseconds).
 */
import { sql, type SQL } from 'drizzle-orm'
import { readScore, scoreOf } from './score'
import { orOtherNames, sqlOf } from '../queries/tsquery'
import type { Expansion } from './synonyms'

/** The order of papers_relevance_idx, and so of the papers within a tier. */
const INDEX_ORDER = sql.raw('relevance desc nulls last, indexed_date desc, id')
/** The same order in a form no index supplies: the planner must collect every match and sort it. */
const SORTED_ORDER = sql.raw('coalesce(relevance, -1) desc, indexed_date desc, id')

// From `terms`: the parsed query (q), its tight form (t), any one of its words (any), these
// restricted to the title (qa, ta, anya; see drizzle/*_search_tiers.sql), the query with phrases loosened to AND
// (ql: what the GIN indexes answer without reading the row), and whether it excludes words.
const term = (name: string) => sql.raw(`(select ${name} from terms)`)
const [Q, T, QA, TA, ANYA, QL, NEGATED] = ['q', 't', 'qa', 'ta', 'anya', 'ql', 'negated'].map(term)

/**
 * For `byTitle`, the same test as `match` on the title_vector that papers_relevance_idx carries
 * (drizzle/0003), for a walk that reads only the index: an exclusion is then checked in the row, for
 * the matching titles only.
 */
const inText = sql`(not ${NEGATED} or exists (select from papers x where x.id = w.id and x.search_vector @@ ${Q}))`

/**
 * The tiers, each excluding those before it, so that every matching paper is in exactly one. `match`
 * reads only search_vector, which sits in the row (title_vector is a TOAST fetch away). A tier's
 * `group` names its candidates, the GIN condition that finds all of them (`gin`: the titles holding all
 * the words, or every match), and the group's `tier` sorts a candidate into its tier (null: none of
 * the group's) with the same tests as the tiers' `match`, each made at most once: a tier's
 * exclusions are the earlier branches of the case. Without exclusions (-word) a title that holds the
 * query holds it in the text (every test is then of words present), so Q need not be asked in group 0.
 * At 1,000,000 papers the tests were half the cost of a GIN scan of a few thousand rows
 * (docs/benchmarks.md, issue 35).
 */
const GROUPS = [
  {
    gin: sql`title_vector @@ ${QL}`,
    tier: sql`case when search_vector @@ ${TA} and (not ${NEGATED} or search_vector @@ ${Q}) then 0
      when search_vector @@ ${QA} and (not ${NEGATED} or search_vector @@ ${Q}) then 1 end`,
  },
  {
    gin: sql`search_vector @@ ${QL}`,
    tier: sql`case when search_vector @@ ${QA} then null
      when search_vector @@ ${ANYA} then case when search_vector @@ ${Q} then 2 end
      when search_vector @@ ${T} then 3 when search_vector @@ ${Q} then 4 end`,
  },
]
const TIERS: { group: number; match: SQL; byTitle?: SQL }[] = [
  {
    group: 0,
    match: sql`search_vector @@ ${TA} and search_vector @@ ${Q}`,
    byTitle: sql`w.title_vector @@ ${T} and ${inText}`,
  },
  {
    group: 0,
    match: sql`search_vector @@ ${QA} and not search_vector @@ ${TA} and search_vector @@ ${Q}`,
    byTitle: sql`w.title_vector @@ ${Q} and not w.title_vector @@ ${T} and ${inText}`,
  },
  { group: 1, match: sql`search_vector @@ ${ANYA} and not search_vector @@ ${QA} and search_vector @@ ${Q}` },
  // (Not in the title at all: a query of exclusions alone has no words for ANYA, so QA is checked too.)
  { group: 1, match: sql`search_vector @@ ${T} and not search_vector @@ ${ANYA} and not search_vector @@ ${QA}` },
  {
    group: 1,
    match: sql`search_vector @@ ${Q} and not search_vector @@ ${ANYA} and not search_vector @@ ${QA} and not
      search_vector @@ ${T}`,
  },
]

export type TierQuery = {
  /** Raw query text (websearch syntax). */
  q: string
  /** The /papers filters as one condition on `papers`. */
  where: SQL
  /** How many hits to find after `after`. */
  hits: number
  /** Papers walked in index order before a tier counts as rare and the GIN index is asked. */
  walk: number
  /** Whether `where` reads only columns of papers_relevance_idx, so a title walk can skip the rows. */
  indexOnly: boolean
  /** The last hit already served (score and id), or null for the best hits. */
  after: { score: number; id: string } | null
  /** Names in the query to search with their entity's other names as well (synonyms.ts). */
  expansions?: Expansion[]
}

/**
 * `geroscope_query_forms(q)` with every name that expands (synonyms.ts) replaced, in each form, by
 * the name OR its entity's other names (each a phrase: orOtherNames, src/queries/tsquery.ts, which the /papers `q`
 * filter uses too, so that both find the same papers): ts_rewrite swaps the name's subtree, so the
 * forms keep their shape ('p16' <-> 'senesc' becomes ( 'p16' | 'cdkn2a' | ... ) <-> 'senesc') and
 * every tier means what it meant, for any of the names. Done before the forms are restricted to the
 * title, because ts_rewrite drops a lexeme's weight. The other names are parsed as phrases of their
 * own (no spelling variants: they are names), and a name whose text is all stop words is left alone.
 * A name of several words is 'a' & 'b' in the query, which ts_rewrite finds among the conjunction's
 * operands, but not in the tight form ('a' <-> 'b' <-> ...): its other names then rank in the looser tiers.
 *
 * The loose form (the GIN condition that lists a group's candidates) is loosened after the rewrite,
 * from the rewritten query: an other name of several words is a phrase ('nicotinamid' <-> 'ribosid'
 * for NR), and a phrase in the GIN condition makes PostgreSQL recheck every candidate against its
 * stored vector, which for title_vector is a TOAST fetch per row (3 to 4 more buffers each: 15 to 29 ms
 * against 1.7 ms for NR's 1,015 title candidates at 250k papers, docs/benchmarks.md). Loosened, the
 * index answers it alone. The candidates are the same or more (every phrase loosened to AND), and
 * the tiers' own tests decide which of them match, so the results and their order are unchanged.
 * (`offset 0` keeps each subquery whole: flattened, the other names were parsed again for every
 * form that uses them, seven times a statement.)
 */
export function queryForms(q: string, expansions: readonly Expansion[] = []): SQL {
  if (expansions.length === 0) return sql`select query, tight, any_word, loose from geroscope_query_forms(${q})`
  // Each typed name parsed once (t), then with its other names (s).
  const typed = expansions.map((e, i) => sql`geroscope_tsquery(${e.text}) as ${sql.raw(`t${i}`)}`)
  const pairs = expansions.map(
    (e, i) =>
      sql`${sql.raw(`t${i}`)}, ${sqlOf(orOtherNames({ text: `t${i}`, values: [] }, e.alternatives))} as
        ${sql.raw(`s${i}`)}`,
  )
  const rewritten = (form: string) =>
    expansions.reduce<SQL>(
      (inner, _, i) => {
        const [t, s] = [sql.raw(`p.t${i}`), sql.raw(`p.s${i}`)]
        return sql`(case when numnode(${t}) = 0 then ${inner} else ts_rewrite(${inner}, ${t}, ${s}) end)`
      },
      sql.raw(`f.${form}`),
    )
  return sql`select query, tight, any_word, geroscope_tsquery_loose_of(query) as loose from (
    select ${rewritten('query')} as query, ${rewritten('tight')} as tight, ${rewritten('any_word')} as any_word
    from geroscope_query_forms(${q}) f, (select ${sql.join(pairs, sql`, `)}
      from (select ${sql.join(typed, sql`, `)} offset 0) typed offset 0) p offset 0) rewritten`
}

/**
 * A statement prefix (`with ...`) defining `tiered(id, tier, relevance, indexed_date)`: the next
 * `hits` matches after `after`, unsorted. The caller orders them by `tieredScore`, then id.
 *
 * Tier k needs `need{k}` hits: those still missing after the tiers before it. The first tier asked of
 * each group is walked: a scout of a fifth of `walk` papers, then the whole walk only if the scout's
 * hits, projected, would be enough (or a walk sized from them, for a thin title tier: `stretchedWalk`).
 * If the walk falls short, the group's GIN scan (`candidates{g}`)
 * lists every candidate with its tier, and this tier and later ones of the group are read from it:
 * a later tier is needed only when this one fell short, and then the scan has been made anyway.
 */
export function tieredHits({ q, where, hits, walk, indexOnly, after, expansions }: TierQuery): SQL {
  const ctes: SQL[] = [
    sql`terms as materialized (
    select query as q, tight as t, geroscope_tsquery_in_title(query) as qa, geroscope_tsquery_in_title(tight) as ta,
      geroscope_tsquery_in_title(any_word) as anya, loose as ql, position('!' in query::text) > 0 as negated
    from (${queryForms(q, expansions)}) forms)`,
  ]
  GROUPS.forEach(({ gin, tier }, g) => {
    ctes.push(sql`${sql.raw(`candidates${g}`)} as materialized (
      select id, relevance, indexed_date, ${tier} as tier from papers where ${where} and ${gin})`)
  })
  const cursor = after && { ...after, ...readScore(after.score) }
  const done: number[] = []
  for (let k = cursor?.tier ?? 0; k < TIERS.length; k++) {
    const { group, match, byTitle } = TIERS[k]
    const counts = done.map((j) => sql` - ${count(`tier${j}`)}`)
    ctes.push(sql`${sql.raw(`need${k}`)} as materialized (select greatest(${hits}::int${sql.join(counts)}, 0) as n)`)
    const need = sql.raw(`(select n from need${k})`)
    const { start, range, rest } = startAt(k, cursor?.tier === k ? cursor : null)
    const fromCandidates = (only: SQL) => sql`select id, relevance, indexed_date from ${sql.raw(`candidates${group}`)}
      where tier = ${sql.raw(String(k))}${only}${range}${rest} order by ${SORTED_ORDER} limit ${need}`
    const tier = sql.raw(`tier${k}`)
    if (done.some((j) => TIERS[j].group === group)) {
      ctes.push(sql`${tier} as materialized (${fromCandidates(sql``)})`)
    } else {
      const test =
        indexOnly && byTitle
          ? { vector: sql.raw('title_vector'), match: byTitle }
          : { vector: sql.raw('search_vector'), match }
      const walkOf = (name: string, rows: number | SQL, only: SQL) => sql`${sql.raw(name)} as materialized (
        select id, relevance, indexed_date from (
          select id, relevance, indexed_date, ${test.vector} from papers where ${where}${start} order by ${INDEX_ORDER}
            limit ${rows}
        ) w
        where ${only}${test.match}${rest}
        order by ${INDEX_ORDER} limit ${need})`
      const [scout, walked, reach] = [`scout${k}`, `walk${k}`, `reach${k}`]
      const scoutLength = Math.ceil(walk / SCOUT)
      ctes.push(walkOf(scout, scoutLength, sql``))
      const stretched = indexOnly && byTitle ? stretchedWalk(count(scout), need, scoutLength) : sql`0`
      ctes.push(sql`${sql.raw(reach)} as materialized (select case when ${count(scout)} >= ${need} then 0
        when ${count(scout)} * ${SCOUT} >= ${need} then ${walk}::bigint else ${stretched} end as n)`)
      const length = sql.raw(`(select n from ${reach})`)
      ctes.push(walkOf(walked, length, sql`${length} > 0 and `))
      ctes.push(sql`${tier} as materialized (
        select * from ${sql.raw(scout)} where ${count(scout)} >= ${need}
        union all
        select * from ${sql.raw(walked)} where ${count(walked)} >= ${need}
        union all
        (${fromCandidates(sql` and ${count(scout)} < ${need} and ${count(walked)} < ${need}`)}))`)
    }
    done.push(k)
  }
  const union = sql.join(
    done.map((k) => sql.raw(`select id, ${k} as tier, relevance, indexed_date from tier${k}`)),
    sql` union all `,
  )
  ctes.push(sql`tiered as (${union})`)
  return sql`with ${sql.join(ctes, sql`, `)} `
}

/** The scout walks 1/SCOUT of the walk: a rare tier is known as such for a fifth of the cost. */
const SCOUT = 5

/**
 * A title tier too thin for the walk (its scout found hits, but too few to project to enough) is
 * walked further when that is cheaper than its GIN scan, which reads the row of every paper whose
 * title holds the words: at 1,000,000 papers a few thousand rows, most of them not in shared buffers.
 * The walk reads the index alone. From the scout's density it should take `need / density` papers;
 * it is taken when those cost less than the GIN scan's rows, estimated as the scout's density times
 * the table's rows (pg_class), a row costing about ROW_COST papers walked with their test
 * (docs/benchmarks.md, issue 35). It may walk STRETCH times as far: a walk stops as soon as it has
 * what it needs, so the margin costs only when the scout was lucky and the GIN scan runs after all.
 * A small table (or one never analysed: reltuples -1) keeps the GIN scan.
 */
const STRETCH = 3
const ROW_COST = 4

function stretchedWalk(found: SQL, need: SQL, scouted: number): SQL {
  const rows = sql`(select greatest(reltuples, 0) from pg_class where oid = 'papers'::regclass)`
  // (Null when the scout found nothing: the case then keeps the GIN scan.)
  const expected = sql`(${need}::float8 * ${scouted} / nullif(${found}, 0))`
  return sql`(case when ${expected} <= ${ROW_COST}::float8 * ${found} / ${scouted} * ${rows}
    then ceil(${STRETCH} * ${expected})::bigint else 0 end)`
}

const count = (cte: string) => sql.raw(`(select count(*) from ${cte})`)

type Cursor = { score: number; id: string; relevance: number | null; indexedDate: string }

/**
 * Where tier k's walk starts: at the top of the index, or, in the cursor's tier, at the cursor's
 * relevance and date as read back from its score (a row comparison the index scan seeks to), with
 * `rest` keeping only papers after it. Unjudged papers (null relevance) come last in the index; a
 * walk that does not reach them falls to the GIN scan, which has them. `range` narrows that scan.
 */
function startAt(k: number, cursor: Cursor | null): { start: SQL; range: SQL; rest: SQL } {
  if (!cursor) return { start: sql``, range: sql``, rest: sql`` }
  const score = scoreOf(sql.raw(String(k)), sql.raw('relevance'), sql.raw('indexed_date'))
  const rest = sql` and (${score} < ${cursor.score}::float8 or (${score} = ${cursor.score}::float8 and id >
    ${cursor.id}))`
  if (cursor.relevance === null) {
    return {
      start: sql` and relevance is null and indexed_date <= ${cursor.indexedDate}`,
      range: sql` and relevance is null`,
      rest,
    }
  }
  return {
    start: sql` and (relevance, indexed_date) <= (${cursor.relevance}::float8, ${cursor.indexedDate}::date)`,
    range: sql` and (relevance <= ${cursor.relevance}::float8 or relevance is null)`,
    rest,
  }
}

/** The score of a row of `tiered` (see score.ts). */
export const tieredScore = scoreOf(sql.raw('tier'), sql.raw('relevance'), sql.raw('indexed_date'))

/**
 * The same ranking as one ORDER BY over every match, written from the tier list at the top of this
 * file rather than from TIERS: what tieredHits must reproduce. It ranks every matching paper, so it
 * is slow for a common query; tests and the benchmark's quality check compare against it.
 */
export function everyMatchRanked(q: string, where: SQL, limit: number, expansions: readonly Expansion[] = []): SQL {
  return sql`select id from papers, (select query as q, tight as t, any_word as a from (${queryForms(q, expansions)})
    forms) terms
    where search_vector @@ q and ${where}
    order by case when title_vector @@ t then 0 when title_vector @@ q then 1 when title_vector @@ a then 2
      when search_vector @@ t then 3 else 4 end, ${INDEX_ORDER}
    limit ${limit}`
}
