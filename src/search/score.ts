/**
 * The search score: a hit's tier, then its relevance, then its indexed_date, packed into one number
 * in [0, 1) that orders hits exactly as the ranking does, so "score descending, then id ascending"
 * (docs/contract-decisions.md) is the ranking and a (score, id) cursor marks a place in it (readScore).
 *
 * Each tier owns a fifth of [0, 1): tier 0 (the best) scores 0.8 and up, tier 1 0.6 and up, and so
 * on. Within it, relevance in thousandths (0 for an unjudged paper) and then days since 1900 make an
 * integer below 2^28; the score is (tier band * 2^28 + that) / (5 * 2^28). Distinct keys get distinct
 * scores and the integer can be read back exactly. Relevance is stored in hundredths, so thousandths
 * lose nothing.
 */
import { sql, type SQL } from 'drizzle-orm'

const TIERS = 5 // tiers.ts
const DAYS = 73_050 // 1900-01-01 to 2099-12-31
const RELEVANCE_STEPS = 3_001 // 0.000 to 3.000
const TIER_SPAN = 2 ** 28 // > (RELEVANCE_STEPS + 1) * DAYS
const SCALE = TIERS * TIER_SPAN

/** The score, in SQL, of a paper in `tier` (0 best) with these relevance and indexed_date values. */
export function scoreOf(tier: SQL, relevance: SQL, indexedDate: SQL): SQL<number> {
  // (greatest and least skip nulls, hence the case.)
  const level = sql`(case when ${relevance} is null then 0 else least(greatest(round(${relevance} * 1000), 0),
    ${RELEVANCE_STEPS - 1}) + 1 end)::bigint`
  const day = sql`least(greatest(${indexedDate} - date '1900-01-01', 0), ${DAYS - 1})`
  return sql<number>`(((${TIERS - 1} - ${tier}) * ${TIER_SPAN}::bigint + ${level} * ${DAYS} + ${day})::float8 /
    ${SCALE})`
}

/**
 * What a score says about its hit: the tier, the relevance (null: unjudged) and the indexed_date
 * (YYYY-MM-DD).
 */
export function readScore(score: number): { tier: number; relevance: number | null; indexedDate: string } {
  const packed = Math.round(score * SCALE)
  const tier = Math.min(Math.max(TIERS - 1 - Math.floor(packed / TIER_SPAN), 0), TIERS - 1)
  const rest = packed - (TIERS - 1 - tier) * TIER_SPAN
  const level = Math.floor(rest / DAYS)
  const day = rest - level * DAYS
  return {
    tier,
    relevance: level <= 0 ? null : (level - 1) / 1000,
    indexedDate: new Date(Date.UTC(1900, 0, 1 + day)).toISOString().slice(0, 10),
  }
}
