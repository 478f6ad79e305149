/**
 * How much a claim weighs, and how contradictions and gaps are scored. Every score is in [0, 1];
 * the formulas are written out here because operators read them (the OpenAPI descriptions quote
 * SCORING_NOTE) and tests check the order they give.
 *
 * Claim weight  w = E × S × R × C
 *   E evidence level, from the paper's study type: human_trial 1, human_observational 0.75, animal 0.6,
 *     review 0.5, invertebrate 0.45, cells 0.35, computational 0.3, other 0.2, not judged 0.3;
 *     × 0.85 for a preprint.
 *   S sample size, from the claim's context.n: 0.6 + 0.4 × min(1, log10(n) / 3) (n = 1,000 or more
 *     gives 1, n = 10 gives 0.73); 0.7 when the claim states no n.
 *   R recency: 0.5 + 0.5 × 2^(−age / 730 days), age from the paper's publication (else index) date
 *     to the refresh day: 1 for a new paper, 0.75 at two years, never below 0.5.
 *   C the claim's extraction confidence (0.5 when it has none), kept in [0.05, 1].
 * Pair score = √(w_increase × w_decrease): a contradiction is as strong as both of its claims together.
 * Group score = best pair score × (0.5 + 0.5 × balance), balance = min(papers up, papers down) /
 *   max(papers up, papers down) over the papers in comparable opposing claims: an even split
 *   weighs more than one dissenting paper against many.
 * Gap scores:
 *   no_human_trial    (1 − 0.5^(animal papers / 3)) × (0.6 + 0.4 × min(1, (organisms − 1) / 2))
 *   single_paper      best claim weight × (0.5 + newsworthiness / 6)
 *   single_organism   (1 − 0.5^(papers / 2)) × √(best claim weight)
 *   declining_attention (1 − recent / expected) × min(1, expected / 20)
 *   disputed_finding  the contradiction group's score
 */
import { sql, type SQL } from 'drizzle-orm'

export const EVIDENCE_LEVEL: Record<string, number> = {
  human_trial: 1,
  human_observational: 0.75,
  animal: 0.6,
  review: 0.5,
  invertebrate: 0.45,
  cells: 0.35,
  computational: 0.3,
  other: 0.2,
}
export const UNJUDGED_LEVEL = 0.3
export const PREPRINT_FACTOR = 0.85
export const RECENCY_HALF_LIFE_DAYS = 730

export const SCORING_NOTE =
  'Claim weight w = evidence level (by study type: human trial 1 … other 0.2; preprints × 0.85) × ' +
  'sample size (0.6 + 0.4·min(1, log10(n)/3); 0.7 unknown) × recency (0.5 + 0.5·2^(−age/730 days)) × extraction ' +
  'confidence. A pair scores √(w_up·w_down); a group scores its best pair × (0.5 + 0.5·balance), balance = min/max ' +
  'of the papers on each side.'

/** The weight of claim `c` of paper `p` (SQL aliases), with `n` its numeric sample size or null. */
export function claimWeightSql(reference: string, n: SQL): SQL {
  const levels = sql.join(
    Object.entries(EVIDENCE_LEVEL).map(([type, level]) => sql`when ${type} then ${level}::float8`),
    sql` `,
  )
  return sql`(
    (case p.study_type ${levels} else ${UNJUDGED_LEVEL}::float8 end) * (case when p.preprint then
      ${PREPRINT_FACTOR}::float8 else 1 end)
    * (case when ${n} is null then 0.7 else 0.6 + 0.4 * least(1, log(greatest(${n}, 1)) / 3) end)
    * (0.5 + 0.5 * power(2::float8, -greatest(0, ${reference}::date - coalesce(p.published_date,
      p.indexed_date))::float8 / ${RECENCY_HALF_LIFE_DAYS}))
    * coalesce(least(1, greatest(0.05, c.confidence)), 0.5)
  )`
}

/** The same weight in JavaScript, for tests and for briefs that rank papers. */
export function claimWeight(input: {
  studyType: string | null
  preprint: boolean
  n: number | null
  paperDate: string
  reference: string
  confidence: number | null
}): number {
  const level =
    (input.studyType ? (EVIDENCE_LEVEL[input.studyType] ?? UNJUDGED_LEVEL) : UNJUDGED_LEVEL) *
    (input.preprint ? PREPRINT_FACTOR : 1)
  const size = input.n === null ? 0.7 : 0.6 + 0.4 * Math.min(1, Math.log10(Math.max(input.n, 1)) / 3)
  const age = Math.max(0, (Date.parse(input.reference) - Date.parse(input.paperDate)) / 86_400_000)
  const recency = 0.5 + 0.5 * 2 ** (-age / RECENCY_HALF_LIFE_DAYS)
  const confidence = input.confidence === null ? 0.5 : Math.min(1, Math.max(0.05, input.confidence))
  return level * size * recency * confidence
}
