/**
 * When the precomputed counts (drizzle/0016_facet_counts.sql) cannot answer a filter — a full-text q,
 * a min_relevance off the half-point grain, a claim's subject, object, paper or entity — the answer is
 * counted live, but only up to a bound: at most FACET_EXACT_BOUND matching rows are counted exactly;
 * above it the total and the groups are estimated from a sample and say so (`total_estimated`,
 * `group_by_estimated`), so no request walks a million rows.
 */
import type { Db } from '../../../db/client'
import { Conditions, statementFamily } from '../../../queries/prepared'

/** Up to this many matching rows, counts and groups outside the precomputed counts are exact. */
export const FACET_EXACT_BOUND = 5_000

/** Rows of the newest end of the list an estimate is made from. */
export const FACET_SAMPLE_ROWS = 2_000

/** The bound and sample size a request uses (tests make them small to reach both paths on a small corpus). */
export type Bounds = { exact: number; sample: number }
export const BOUNDS: Bounds = { exact: FACET_EXACT_BOUND, sample: FACET_SAMPLE_ROWS }

/** How many rows of `from` match `where`, counted up to `bound` + 1. */
export function boundedCounter(from: string) {
  const statement = statementFamily<{ n: number }>((where) =>
    `select count(*)::int as n from (select 1 from ${from} where ${where} limit $?::int) matching`)
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
