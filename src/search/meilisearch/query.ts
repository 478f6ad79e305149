/**
 * A query, as PostgreSQL reads it (src/search/websearch.ts, stop words already dropped), in
 * Meilisearch's syntax. Meilisearch understands phrases and -exclusions (v1.8+) but has no OR: each
 * alternative becomes a Meilisearch query of its own, merged by federated multi-search. As in
 * PostgreSQL, AND binds tighter than OR and an exclusion belongs to its alternative:
 * `rapamycin mice OR metformin -worms` is the queries `rapamycin mice` and `metformin -worms`.
 * (Each is sent with matchingStrategy "all", so every word must match, as in PostgreSQL.)
 *
 * Meilisearch neither stems nor knows British from American spelling: each operand comes with the
 * readings PostgreSQL searches it with (geroscope_variants: `mice` and `mouse`, `tumour` and `tumor`),
 * and an alternative becomes one query per combination of its operands' readings; an excluded
 * operand excludes every reading. (Meilisearch's synonyms cannot do this: they match whole words
 * only, and without stemming every inflected form would have to be listed.)
 */
import { isNegated, type Operand } from '../websearch'

/** More queries than this are not worth a query each; PostgreSQL answers such a query instead. */
export const MAX_BRANCHES = 16

/** An operand with the readings to search it by (the first as written); none: as written only. */
export type ReadOperand = Operand & { variants?: string[] }

function operandText(o: Operand): string {
  const text = o.phrase ? `"${o.text.trim().split(/\s+/).join(' ')}"` : o.text
  if (!isNegated(o)) return text
  // Meilisearch negates the word or phrase right after a minus: a word that starts with punctuation
  // (">cocktail") is quoted so that the minus still has a word to hold on to.
  return o.phrase || /^[\p{L}\p{N}]/u.test(text) ? `-${text}` : `-"${text}"`
}

const readings = (o: ReadOperand): string[] => (o.variants?.length ? o.variants : [o.text])

/**
 * One Meilisearch `q` per alternative and combination of readings (a query of exclusions alone,
 * such as `-mice`, lists every paper without them, as in PostgreSQL); null when there are more than
 * MAX_BRANCHES.
 */
export function translateQuery(query: ReadOperand[][]): string[] | null {
  const branches = new Set<string>()
  for (const alternative of query) {
    let combinations: string[][] = [[]]
    for (const o of alternative) {
      const texts = readings(o).map((text) => operandText({ ...o, text }))
      combinations = isNegated(o)
        ? combinations.map((c) => [...c, ...texts])
        : combinations.flatMap((c) => texts.map((t) => [...c, t]))
      if (combinations.length > MAX_BRANCHES) return null
    }
    for (const c of combinations) branches.add(c.join(' '))
  }
  return branches.size > MAX_BRANCHES ? null : [...branches]
}
