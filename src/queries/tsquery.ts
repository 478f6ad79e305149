/**
 * The query language of /search and the /papers `q` filter, as SQL: PostgreSQL's websearch syntax
 * read by `geroscope_tsquery` (drizzle/0001_search_config.sql and later search migrations).
 * Below both the search backends and the paper queries, so neither has to import the other.
 */
import { sql, type SQL } from 'drizzle-orm'
import { papers } from '../db/schema'

/** The parsed query: quoted phrases, OR, -exclusions (websearch syntax), accents folded, GLP-1 = GLP1. */
export const tsquery = (q: string) => sql`geroscope_tsquery(${q})`

/**
 * A name in a query that is matched by its entity's other names as well: the words as typed and the other names
 * (src/search/synonyms.ts `expandQuery` finds them, for /search and the /papers `q` filter alike).
 */
export type NameExpansion = { readonly text: string; readonly alternatives: readonly string[] }

/** SQL as text with a `$?` for each value (src/queries/prepared.ts), and the values in order. */
export type SqlText = { text: string; values: unknown[] }

/** SqlText as a drizzle fragment. */
export function sqlOf({ text, values }: SqlText): SQL {
  const [first, ...rest] = text.split('$?')
  return sql.join([sql.raw(first), ...rest.map((part, i) => sql`${sql.param(values[i])}${sql.raw(part)}`)])
}

/**
 * The tsquery `typed` OR each of `alternatives`, each parsed as a phrase of its own (no
 * spelling variants: they are names); a name that parses to nothing (stop words only) adds nothing, as `||` with an
 * empty tsquery is the other operand. /search puts it in place of the typed name (src/search/tiers.ts), and so does
 * the /papers `q` filter (`expandedTsquery`).
 */
export function orOtherNames(typed: SqlText, alternatives: readonly string[]): SqlText {
  return {
    text: `(${[typed.text, ...alternatives.map(() => 'geroscope_tsquery_parsed($?::text)')].join(' || ')})`,
    values: [...typed.values, ...alternatives.map((a) => `"${a}"`)],
  }
}

/**
 * `q` parsed as /search's query is (geroscope_tsquery), every expanded name replaced by the name OR its other names:
 * ts_rewrite swaps the name's subtree wherever it stands (src/search/tiers.ts `queryForms` does the same to each of
 * its forms). A typed name that parses to nothing (stop words) is an empty target, which ts_rewrite leaves alone.
 * With no expansions it is geroscope_tsquery($?) alone. No subquery: given values, PostgreSQL folds it to a constant
 * when it plans, and can price the words for its choice of index.
 */
export function expandedTsquery(q: string, expansions: readonly NameExpansion[] = []): SqlText {
  return expansions.reduce<SqlText>(
    (inner, e) => {
      const typed = { text: 'geroscope_tsquery($?::text)', values: [e.text] }
      const others = orOtherNames(typed, e.alternatives)
      return {
        text: `ts_rewrite(${inner.text}, ${typed.text}, ${others.text})`,
        values: [...inner.values, ...typed.values, ...others.values],
      }
    },
    { text: 'geroscope_tsquery($?::text)', values: [q] },
  )
}

/**
 * The /papers `q` filter: the same query language as /search, matched against the stored vector, with the names
 * /search expands matched by their other names too (`expansions`).
 */
export const matchesQuery = (q: string, expansions: readonly NameExpansion[] = []): SQL =>
  expansions.length === 0
    ? sql`${papers.searchVector} @@ ${tsquery(q)}`
    : sql`${papers.searchVector} @@ ${sqlOf(expandedTsquery(q, expansions))}`
