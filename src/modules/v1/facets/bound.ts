/**
 * When the precomputed counts (drizzle/0016_facet_counts.sql) cannot answer a filter — a full-text q,
 * a min_relevance off the half-point grain, a claim's subject, object, paper or entity — the answer is
 * counted live, but only up to a bound: at most FACET_EXACT_BOUND matching rows are counted exactly;
 * above it the total and the groups are estimated from a sample and say so (`total_estimated`,
 * `group_by_estimated`), so no request walks a million rows.
 */
import type { Db } from '../../../db/client'
import { Conditions, statementFamily } from '../../../queries/prepared'
import { FACET_EXACT_BOUND, type FacetAnswer, type Group, type GroupBy } from './params'

/** Rows of the newest end of the list an estimate is made from. */
export const FACET_SAMPLE_ROWS = 2_000

/** The bound and sample size a request uses (tests make them small to reach both paths on a small corpus). */
export type Bounds = { exact: number; sample: number }
export const BOUNDS: Bounds = { exact: FACET_EXACT_BOUND, sample: FACET_SAMPLE_ROWS }

/** How many rows of `from` match `where`, counted up to `bound` + 1. */
export function boundedCounter(from: string) {
  const statement = statementFamily<{ n: number }>(
    (where) => `select count(*)::int as n from (select 1 from ${from} where ${where} limit $?::int) matching`,
  )
  return async (db: Db, where: Conditions, bound: number) => (await statement(db, [], where, [bound + 1]))[0].n
}

/** A sample's size as a one-value clause for statementFamilyOf (`limit ${clause}`). */
export const sampleLimit = (rows: number) => new Conditions().add('$?::int', rows)

/** A condition set copied, so one request's clauses can be reused in two statements. */
export const copyConditions = (c: Conditions) => {
  const copy = new Conditions()
  copy.fragments.push(...c.fragments)
  copy.values.push(...c.values)
  return copy
}

/** `count` of `sampled` matching rows scaled to `population` rows of the superset the sample was drawn from. */
export const scaled = (count: number, sampled: number, population: number) =>
  sampled === 0 ? 0 : Math.round((count * population) / sampled)

/** The sample statements of a resource: its count and its groups over (superset, sample size, full filter) clauses. */
export type SampleStatements = {
  count: (db: Db, wheres: Conditions[]) => Promise<{ sampled: number; n: number }[]>
  groups: Record<GroupBy, (db: Db, wheres: Conditions[]) => Promise<(Group & { sampled: number })[]>>
}

/**
 * The answer above the bound: counted and grouped on the sample, scaled to `population`, the exact
 * size of the superset the sample is drawn from, and flagged as estimated. `wheres` gives the
 * clauses (the superset's, the sample size's, the full filter's) for each statement.
 */
export async function estimateFromSample(
  db: Db,
  p: { count?: boolean; group_by?: GroupBy },
  sample: SampleStatements,
  wheres: () => Conditions[],
  population: number,
): Promise<FacetAnswer> {
  const [total, groups] = await Promise.all([
    p.count ? sample.count(db, wheres()).then(([r]) => scaled(r!.n, r!.sampled, population)) : undefined,
    p.group_by
      ? sample.groups[p.group_by](db, wheres()).then((rows) =>
          rows.map((r) => ({ key: r.key, count: scaled(r.count, r.sampled, population) })),
        )
      : undefined,
  ])
  return {
    ...(total === undefined ? {} : { total, totalEstimated: true as const }),
    ...(groups ? { group_by: groups, groupByEstimated: true as const } : {}),
  }
}
