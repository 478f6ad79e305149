/**
 * Counts and facets over /claims with the list's filters. relation and organism (the claim's own
 * values) are answered from the precomputed counts (claim_facet_counts, drizzle/0016_facet_counts.sql),
 * whose columns carry the list's names so the list's own conditions (claimConditions in
 * src/resources/claims/queries.ts, alias c) apply to them unchanged. subject, object and paper_id are counted live
 * over the list's joins up to a bound, and estimated above it (./bound.ts).
 */
import type { Db } from '../../../db/client'
import { CLAIM_JOINS, claimBranches, claimConditions, type ClaimFilters } from '../../../resources/claims/queries'
import { type Conditions, statementFamily, statementFamilyOf } from '../../../queries/prepared'
import { countsOf } from '../../../queries/facet-counts'
import { BOUNDS, estimateFromSample, sampleLimit, type Bounds, copyConditions } from './bound'
import { MAX_GROUPS, type FacetAnswer, type Group, type GroupBy } from './params'

const GROUP_KEYS: Record<GroupBy, string> = {
  relation: 'c.relation',
  organism: 'c.organism',
  topic: 'p.topic',
  study_type: 'p.study_type',
  preprint: 'p.preprint',
  indexed_month: `to_char(p.indexed_date, 'YYYY-MM')`,
}

const COUNTED_KEYS: Record<GroupBy, string> = {
  relation: 'c.relation',
  organism: 'c.organism',
  topic: 'c.topic',
  study_type: 'c.study_type',
  preprint: 'c.preprint',
  indexed_month: `to_char(c.indexed_month, 'YYYY-MM')`,
}

/** True when the precomputed counts answer `f` exactly: only the claim's relation and organism filter it. */
export const countsAnswer = (f: ClaimFilters) =>
  !f.subject && !f.object && !f.paperId && f.subjectEntityId === undefined && f.objectEntityId === undefined

const COUNTS = countsOf('claim_facet_counts')

type Family = ReturnType<typeof statementFamily<Group>>
const summed = statementFamily<{ n: number }>(
  (where) => `select coalesce(sum(n), 0)::int as n from ${COUNTS} c where ${where}`,
)
const summedGroups = Object.fromEntries(
  Object.entries(COUNTED_KEYS).map(([by, key]) => [
    by,
    statementFamily<Group>(
      (where) => `select ${key} as key, sum(n)::int as count from ${COUNTS} c where ${where}
    group by 1 having sum(n) > 0 order by 2 desc, 1 asc nulls last limit ${MAX_GROUPS}`,
    ),
  ]),
) as Record<GroupBy, Family>

// Live counts read the filter's branches (claimBranches: disjoint, each led by an index) one by one.
const liveGroups = Object.fromEntries(
  Object.entries(GROUP_KEYS).map(([by, key]) => [
    by,
    statementFamilyOf<Group>(
      (...branches) =>
        `select ${key} as key, count(*)::int as count
    from (${branches.map((where) => `select c.* from claims c where ${where}`).join(' union all ')}) c ${CLAIM_JOINS}
    group by 1 order by 2 desc, 1 asc nulls last limit ${MAX_GROUPS}`,
    ),
  ]),
) as Record<GroupBy, ReturnType<typeof statementFamilyOf<Group>>>
// Each branch counted up to the bound + 1 (its clause follows the branch's): a sum above the bound is all an estimate
// needs to know.
const countBranches = statementFamilyOf<{ n: number }>(
  (...clauses) =>
    `select ${clauses
      .flatMap((where, i) =>
        i % 2 ? [] : [`(select count(*)::int from (select 1 from claims c where ${where} limit ${clauses[i + 1]}) b)`],
      )
      .join(' + ')} as n`,
)
const countMatching = async (db: Db, branches: Conditions[], bound: number) =>
  (
    await countBranches(
      db,
      branches.flatMap((b) => [b, sampleLimit(bound + 1)]),
    )
  )[0].n

// An estimate's sample (its size travels as a one-value clause, `limit`): the newest bounds.sample claims of the
// relation and organism asked for (the superset the counts hold), in the list's own index order; the filters proper
// apply to it.
const SAMPLE = (superset: string, limit: string) => `sample as (select c.* from claims c where ${superset}
  order by c.created_at desc, c.id desc limit ${limit})`
const sampleCount = statementFamilyOf<{ sampled: number; n: number }>(
  (superset, limit, full) => `with ${SAMPLE(superset, limit)}
  select (select count(*)::int from sample) as sampled, count(*)::int as n from sample c ${CLAIM_JOINS} where ${full}`,
)
const sampleGroups = Object.fromEntries(
  Object.entries(GROUP_KEYS).map(([by, key]) => [
    by,
    statementFamilyOf<Group & { sampled: number }>(
      (superset, limit, full) => `with ${SAMPLE(superset, limit)}
    select ${key} as key, count(*)::int as count, (select count(*)::int from sample) as sampled
    from sample c ${CLAIM_JOINS} where ${full} group by 1 order by 2 desc, 1 asc nulls last limit ${MAX_GROUPS}`,
    ),
  ]),
) as Record<GroupBy, ReturnType<typeof statementFamilyOf<Group & { sampled: number }>>>

async function estimate(
  db: Db,
  filters: ClaimFilters,
  p: { count?: boolean; group_by?: GroupBy },
  bounds: Bounds,
): Promise<FacetAnswer> {
  const superset = await claimConditions(db, { relation: filters.relation, organism: filters.organism })
  const full = await claimConditions(db, filters)
  const population = (await summed(db, [], copyConditions(superset), []))[0].n
  return estimateFromSample(
    db,
    p,
    { count: sampleCount, groups: sampleGroups },
    () => [superset, sampleLimit(bounds.sample), full],
    population,
  )
}

/** What count= and group_by= add to a /claims answer. */
export async function claimFacets(
  db: Db,
  filters: ClaimFilters,
  p: { count?: boolean; group_by?: GroupBy },
  bounds = BOUNDS,
): Promise<FacetAnswer> {
  if (!p.count && !p.group_by) return {}
  if (countsAnswer(filters)) {
    const where = await claimConditions(db, filters)
    const [total, groups] = await Promise.all([
      p.count ? summed(db, [], where, []).then((rows) => rows[0].n) : undefined,
      p.group_by ? summedGroups[p.group_by](db, [], where, []) : undefined,
    ])
    return { ...(total === undefined ? {} : { total }), ...(groups ? { group_by: groups } : {}) }
  }
  const branches = await claimBranches(db, filters)
  const matching = await countMatching(db, branches, bounds.exact)
  if (matching > bounds.exact) return estimate(db, filters, p, bounds)
  const groups = p.group_by ? await liveGroups[p.group_by](db, branches) : undefined
  return { ...(p.count ? { total: matching } : {}), ...(groups ? { group_by: groups } : {}) }
}
