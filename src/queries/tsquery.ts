/**
 * The query language of /search and the /papers `q` filter, as SQL: PostgreSQL's websearch syntax
 * read by `geroscope_tsquery` (drizzle/0001_search_config.sql and later search migrations).
 * Below both the search backends and the paper queries, so neither has to import the other.
 */
import { sql, type SQL } from 'drizzle-orm'
import { papers } from '../db/schema'

/** The parsed query: quoted phrases, OR, -exclusions (websearch syntax), accents folded, GLP-1 = GLP1. */
export const tsquery = (q: string) => sql`geroscope_tsquery(${q})`

/** The /papers `q` filter: the same query language as /search, matched against the stored vector. */
export const matchesQuery = (q: string): SQL => sql`${papers.searchVector} @@ ${tsquery(q)}`
