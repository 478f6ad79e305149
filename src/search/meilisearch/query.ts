/**
 * A query, as PostgreSQL reads it (src/search/websearch.ts, stop words already dropped), in
 * Meilisearch's syntax. Meilisearch understands phrases and -exclusions (v1.8+) but has no OR: each
 * alternative becomes a Meilisearch query of its own, merged by federated multi-search. As in
 * PostgreSQL, AND binds tighter than OR and an exclusion belongs to its alternative:
 * `rapamycin mice OR metformin -worms` is the queries `rapamycin mice` and `metformin -worms`.
 * (Each is sent with matchingStrategy "all", so every word must match, as in PostgreSQL.)
 */
import { isNegated, type Operand, type WebsearchQuery } from '../websearch'

/** More alternatives than this are not worth a query each; PostgreSQL answers such a query instead. */
export const MAX_BRANCHES = 16

function operandText(o: Operand): string {
  const text = o.phrase ? `"${o.text.trim().split(/\s+/).join(' ')}"` : o.text
  if (!isNegated(o)) return text
  // Meilisearch negates the word or phrase right after a minus: a word that starts with punctuation
  // (">cocktail") is quoted so that the minus still has a word to hold on to.
  return o.phrase || /^[\p{L}\p{N}]/u.test(text) ? `-${text}` : `-"${text}"`
}

/**
 * One Meilisearch `q` per alternative (a query of exclusions alone, such as `-mice`, lists every
 * paper without them, as in PostgreSQL); null when there are more than MAX_BRANCHES.
 */
export function translateQuery(query: WebsearchQuery): string[] | null {
  if (query.length > MAX_BRANCHES) return null
  return query.map((alternative) => alternative.map(operandText).join(' '))
}
