/**
 * Counts and facets over /papers with the list's own filters. Filters the precomputed counts hold
 * (dates, topic, study type, preprint, min_relevance at a multiple of 0.5) are answered by summing
 * their rows, exact and in a few milliseconds at any size; anything else (q, or a min_relevance such as
 * 2.25) is counted live with the list's own WHERE clause (`paperConditions`) up to a bound, and
 * estimated above it (./bound.ts).
 */
import { and, count, countDistinct, desc, eq, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { claims, entities, paperEntities, papers } from '../../../db/schema'
import { paperConditions, paperConditionsText, type PaperFilters } from '../../../resources/papers/queries'
import { Conditions, statementFamilyOf } from '../../../queries/prepared'
import { countsOf } from '../../../queries/facet-counts'
import { BOUNDS, boundedCounter, estimateFromSample, sampleLimit, type Bounds } from './bound'
import { MAX_GROUPS, type FacetAnswer, type Group, type GroupBy } from './params'

/** min_relevance as the counts' relevance_band (floor(relevance * 2)), when it falls on a band's edge. */
const bandOf = (minRelevance: number) => (Number.isInteger(minRelevance * 2) ? minRelevance * 2 : null)

/** Publication dates, which the precomputed counts (kept by indexed date) do not hold. */
const byPublication = (f: PaperFilters) => f.publishedSince !== undefined || f.publishedUntil !== undefined

/** True when the precomputed counts answer `filters` exactly. */
export const countsAnswer = (f: PaperFilters) =>
  !f.q &&
  !byPublication(f) &&
  bandOf(f.minRelevance) !== null &&
  (f.relevanceBelow === undefined || bandOf(f.relevanceBelow) !== null)

/** The filters other than dates as conditions over a precomputed count table (its own columns, unaliased). */
function dimensionConditions(f: PaperFilters): Conditions {
  const where = new Conditions()
  if (f.minRelevance > 0) where.add('relevance_band >= $?::smallint', Math.floor(f.minRelevance * 2))
  if (f.relevanceBelow !== undefined) where.add('relevance_band < $?::smallint', Math.floor(f.relevanceBelow * 2))
  if (f.studyType) where.add('study_type = any($?::text[])', [...f.studyType])
  if (f.topic) where.add('topic = any($?::text[])', [...f.topic])
  if (f.preprint !== undefined) where.add('preprint = $?::boolean', f.preprint)
  return where
}

const ymd = (t: number) => new Date(t).toISOString().slice(0, 10)
const monthStart = (d: string, plus = 0) => {
  const [y, m] = d.split('-').map(Number)
  return ymd(Date.UTC(y, m - 1 + plus, 1))
}

/**
 * since..until as whole months (summed from the monthly rows) and the days at either end (from the
 * daily rows): [first whole month, last whole month] (null: open), or none when no month lies wholly inside.
 */
export function splitDates(
  since?: string,
  until?: string,
): { months: [string | null, string | null] | null; days: [string | null, string][] | null } {
  if (!since && !until) return { months: [null, null], days: null }
  const first = since ? (since.endsWith('-01') ? since : monthStart(since, 1)) : null
  const last = until
    ? monthStart(until, 1) === ymd(Date.parse(until) + 86_400_000)
      ? monthStart(until)
      : monthStart(until, -1)
    : null
  if (first && last && first > last) return { months: null, days: [[since ?? null, until!]] }
  const days: [string | null, string][] = []
  if (since && first && since < first) days.push([since, ymd(Date.parse(first) - 86_400_000)])
  if (until && last && monthStart(last, 1) <= until) days.push([monthStart(last, 1), until])
  return { months: [first, last], days: days.length ? days : null }
}

/** The monthly and the daily rows' conditions for `f` (either may select nothing: `false`). */
function countConditions(f: PaperFilters): [Conditions, Conditions] {
  const { months, days } = splitDates(f.since, f.until)
  const monthly = dimensionConditions(f)
  if (!months) monthly.add('false')
  else {
    if (months[0]) monthly.add('indexed_month >= $?::date', months[0])
    if (months[1]) monthly.add('indexed_month <= $?::date', months[1])
  }
  const daily = dimensionConditions(f)
  if (!days) daily.add('false')
  else {
    const ranges = days.map(([from]) =>
      from ? '(indexed_date >= $?::date and indexed_date <= $?::date)' : 'indexed_date <= $?::date',
    )
    daily.add(`(${ranges.join(' or ')})`, ...days.flatMap(([from, to]) => (from ? [from, to] : [to])))
  }
  return [monthly, daily]
}

const TABLES: Record<
  GroupBy,
  { table: 'paper_facet_counts' | 'paper_organism_counts' | 'paper_relation_counts'; key: string }
> = {
  topic: { table: 'paper_facet_counts', key: 'topic' },
  study_type: { table: 'paper_facet_counts', key: 'study_type' },
  preprint: { table: 'paper_facet_counts', key: 'preprint' },
  indexed_month: { table: 'paper_facet_counts', key: `to_char(indexed_$, 'YYYY-MM')` },
  organism: { table: 'paper_organism_counts', key: 'organism' },
  relation: { table: 'paper_relation_counts', key: 'relation' },
}

// Both statements read the monthly rows and the daily rows beside them, whichever the dates need.
const summedRows = statementFamilyOf<{ n: number }>(
  (monthly, daily) =>
    `select coalesce(sum(n), 0)::int as n from (
  select n from ${countsOf('paper_facet_counts_monthly')} m where ${monthly} union all select n ` +
    `from ${countsOf('paper_facet_counts')} d where ${daily}) r`,
)
const summed = (db: Db, f: PaperFilters) => summedRows(db, countConditions(f)).then((rows) => rows[0].n)
const summedGroups = Object.fromEntries(
  Object.entries(TABLES).map(([by, { table, key }]) => [
    by,
    statementFamilyOf<Group>(
      (monthly, daily) =>
        `select key, sum(n)::int as count from (
    select ${key.replace('indexed_$', 'indexed_month')} as key, n from ${countsOf(`${table}_monthly`)} m ` +
        `where ${monthly}
    union all select ${key.replace('indexed_$', 'indexed_date')} as key, n from ${countsOf(table)} d where ${daily}) r
    group by 1 having sum(n) > 0 order by 2 desc, 1 asc nulls last limit ${MAX_GROUPS}`,
    ),
  ]),
) as Record<GroupBy, ReturnType<typeof statementFamilyOf<Group>>>

/** The exact number of papers matching `filters`, counted live (the rows themselves). */
export async function countPapersLive(db: Db, filters: PaperFilters): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(papers)
    .where(and(...paperConditions(filters)))
  return row.n
}

/** Papers matching `filters`, counted live by `by` (the rows themselves). */
export async function groupPapersLive(db: Db, filters: PaperFilters, by: GroupBy): Promise<Group[]> {
  const where = and(...paperConditions(filters))
  let query
  switch (by) {
    case 'topic':
    case 'study_type':
    case 'preprint':
    case 'indexed_month': {
      const key: SQL =
        by === 'topic'
          ? sql`${papers.topic}`
          : by === 'study_type'
            ? sql`${papers.studyType}`
            : by === 'preprint'
              ? sql`${papers.preprint}`
              : sql`to_char(${papers.indexedDate}, 'YYYY-MM')`
      query = db.select({ key, count: count() }).from(papers).where(where).groupBy(key)
      break
    }
    case 'organism': {
      // Each paper once per organism, however many roles the organism plays in it.
      const n = countDistinct(papers.id)
      query = db
        .select({ key: sql`${entities.name}`, count: n })
        .from(papers)
        .innerJoin(paperEntities, eq(paperEntities.paperId, papers.id))
        .innerJoin(entities, and(eq(entities.id, paperEntities.entityId), eq(entities.type, 'organism')))
        .where(where)
        .groupBy(entities.name)
      break
    }
    case 'relation': {
      const n = countDistinct(papers.id)
      query = db
        .select({ key: sql`${claims.relation}`, count: n })
        .from(papers)
        .innerJoin(claims, eq(claims.paperId, papers.id))
        .where(where)
        .groupBy(claims.relation)
      break
    }
  }
  const rows = await query.orderBy(desc(sql`2`), sql`1 asc nulls last`).limit(MAX_GROUPS)
  return rows.map((r) => ({ key: r.key as string | boolean | null, count: Number(r.count) }))
}

const countMatching = boundedCounter('papers p')

// An estimate's sample (its size travels as a one-value clause, `limit`): the newest bounds.sample papers of the
// superset the counts hold (q dropped, min_relevance down to its band's edge), in the list's own index order; the
// filters proper apply to it.
// Only the columns the filters and keys read, and the search vector only when the filter has q: sorting
// 14,000 rows with it spilled 21 MB to disk (0.8 s) for a filter that never reads it.
const SAMPLE = (
  superset: string,
  limit: string,
  full: string,
) => `sample as (select p.id, p.indexed_date, p.topic, p.study_type, p.preprint, p.relevance
  ${full.includes('p.published_date') ? ', p.published_date' : ''}
  ${full.includes('p.search_vector') ? ', p.search_vector' : ''} from papers p where ${superset}
  order by p.indexed_date desc, p.id asc limit ${limit})`
const sampleCount = statementFamilyOf<{ sampled: number; n: number }>(
  (superset, limit, full) => `with ${SAMPLE(superset, limit, full)}
  select (select count(*)::int from sample) as sampled, count(*)::int as n from sample p where ${full}`,
)
const SAMPLE_KEYS: Record<GroupBy, { key: string; join: string }> = {
  topic: { key: 'p.topic', join: '' },
  study_type: { key: 'p.study_type', join: '' },
  preprint: { key: 'p.preprint', join: '' },
  indexed_month: { key: `to_char(p.indexed_date, 'YYYY-MM')`, join: '' },
  organism: {
    key: 'e.name',
    join: `join paper_entities pe on pe.paper_id = p.id join entities e on e.id = pe.entity_id and e.type = 'organism'`,
  },
  relation: { key: 'c.relation', join: 'join claims c on c.paper_id = p.id' },
}
const sampleGroups = Object.fromEntries(
  Object.entries(SAMPLE_KEYS).map(([by, { key, join }]) => [
    by,
    statementFamilyOf<Group & { sampled: number }>(
      (superset, limit, full) => `with ${SAMPLE(superset, limit, full)}
    select ${key} as key, count(distinct p.id)::int as count, (select count(*)::int from sample) as sampled
    from sample p ${join} where ${full} group by 1 order by 2 desc, 1 asc nulls last limit ${MAX_GROUPS}`,
    ),
  ]),
) as Record<GroupBy, ReturnType<typeof statementFamilyOf<Group & { sampled: number }>>>

/** The superset of `filters` the counts hold: q and publication dates dropped, min_relevance down to a band's edge. */
const supersetOf = (f: PaperFilters): PaperFilters => ({
  ...f,
  q: undefined,
  publishedSince: undefined,
  publishedUntil: undefined,
  minRelevance: Math.floor(f.minRelevance * 2) / 2,
})

/** Estimates from the sample, scaled to the superset's exact size; groups re-sorted after scaling. */
async function estimate(
  db: Db,
  f: PaperFilters,
  p: { count?: boolean; group_by?: GroupBy },
  bounds: Bounds,
): Promise<FacetAnswer> {
  const superset = supersetOf(f)
  const wheres = () => [
    paperConditionsText(superset),
    sampleLimit(bounds.sample),
    paperConditionsText(f, undefined, true),
  ]
  return estimateFromSample(db, p, { count: sampleCount, groups: sampleGroups }, wheres, await summed(db, superset))
}

/**
 * A min_relevance off the half-point grain (2.25) without q, as the part the counts hold (relevance
 * 2.5 and up) and the slice of one band below it (2.25 up to 2.5), counted live: the live count reads a
 * band instead of everything above 2.25 (a bounded count scanned the table for a rare study type, 0.6 s).
 */
function splitRelevance(f: PaperFilters): { counted: PaperFilters; slice: PaperFilters } | null {
  if (f.q || byPublication(f) || f.relevanceBelow !== undefined || countsAnswer(f)) return null
  const edge = Math.ceil(f.minRelevance * 2) / 2
  return { counted: { ...f, minRelevance: edge }, slice: { ...f, relevanceBelow: edge } }
}

// The database's order of groups (count descending, then key ascending, nulls last), for merged groups.
const byCountThenKey = (a: Group, b: Group) =>
  b.count - a.count || (a.key === b.key ? 0 : a.key === null ? 1 : b.key === null ? -1 : a.key < b.key ? -1 : 1)

/** Two answers over disjoint sets of papers, added up; estimated if either part is. */
function added(a: FacetAnswer, b: FacetAnswer): FacetAnswer {
  const answer: FacetAnswer = {}
  if (a.total !== undefined) answer.total = a.total + (b.total ?? 0)
  if (a.totalEstimated || b.totalEstimated) answer.totalEstimated = true
  if (a.group_by) {
    const sums = new Map<Group['key'], number>()
    for (const g of [...a.group_by, ...(b.group_by ?? [])]) sums.set(g.key, (sums.get(g.key) ?? 0) + g.count)
    answer.group_by = [...sums]
      .map(([key, count]) => ({ key, count }))
      .filter((g) => g.count > 0)
      .sort(byCountThenKey)
      .slice(0, MAX_GROUPS)
  }
  if (a.groupByEstimated || b.groupByEstimated) answer.groupByEstimated = true
  return answer
}

/** What count= and group_by= add to a /papers answer. */
export async function paperFacets(
  db: Db,
  filters: PaperFilters,
  p: { count?: boolean; group_by?: GroupBy },
  bounds = BOUNDS,
): Promise<FacetAnswer> {
  if (!p.count && !p.group_by) return {}
  const split = splitRelevance(filters)
  if (split) {
    const [counted, slice] = await Promise.all([
      paperFacets(db, split.counted, p, bounds),
      paperFacets(db, split.slice, p, bounds),
    ])
    // Each part keeps its largest MAX_GROUPS groups; when one may have left some out, their sum could be short,
    // so such a filter is counted live as a whole instead (below).
    const full = (answer: FacetAnswer) => (answer.group_by?.length ?? 0) >= MAX_GROUPS
    if (!full(counted) && !full(slice)) return added(counted, slice)
  }
  if (countsAnswer(filters)) {
    const [total, groups] = await Promise.all([
      p.count ? summed(db, filters) : undefined,
      p.group_by ? summedGroups[p.group_by](db, countConditions(filters)) : undefined,
    ])
    return { ...(total === undefined ? {} : { total }), ...(groups ? { group_by: groups } : {}) }
  }
  const matching = await countMatching(db, paperConditionsText(filters, undefined, true), bounds.exact)
  if (matching > bounds.exact) return estimate(db, filters, p, bounds)
  const groups = p.group_by ? await groupPapersLive(db, filters, p.group_by) : undefined
  return { ...(p.count ? { total: matching } : {}), ...(groups ? { group_by: groups } : {}) }
}
