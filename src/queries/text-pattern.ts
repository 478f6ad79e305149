/** Substring filters (entity names, claim sides, organisms) as LIKE patterns. */

/** A LIKE pattern that finds `text` anywhere, with %, _ and \ taken literally (\ is PostgreSQL's default escape). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}
