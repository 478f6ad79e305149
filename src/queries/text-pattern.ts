/** Substring filters (entity names, claim sides, organisms) as LIKE patterns. */

/** A LIKE pattern that finds `text` anywhere, with %, _ and \ taken literally (\ is PostgreSQL's default escape). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** A regular expression's special characters taken literally (PostgreSQL's advanced regular expressions). */
const literal = (text: string) => text.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`)

/**
 * A case-insensitive (~*) regular expression that finds any of `names` as a whole word: neither side of
 * it touching another letter or digit, so "sirolimus" is found in "low-dose sirolimus" but not in
 * "temsirolimus". Names are taken literally, longest first, the first `max` distinct ones.
 */
export function wholeWordsPattern(names: string[], max: number): string {
  const distinct = [
    ...new Set(
      names
        .map((n) => n.trim())
        .filter(Boolean)
        .map((n) => n.toLowerCase()),
    ),
  ].slice(0, max)
  distinct.sort((a, b) => b.length - a.length)
  return `(^|[^[:alnum:]])(${distinct.map(literal).join('|')})([^[:alnum:]]|$)`
}
