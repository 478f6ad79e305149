/**
 * How long the search migration (drizzle/*_search_title_abstract_folding.sql: vectors rebuilt over title and abstract, indexes
 * rebuilt) takes on a corpus that already has rows, and what the rows look like after it:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<copy of a corpus seeded before the search migration> bun scripts/bench-migrate-search.ts
 * Run it on a copy (CREATE DATABASE x TEMPLATE y): it migrates the database it is given.
 */
import { sql } from 'drizzle-orm'
import { openDatabase } from '../src/db/client'
import { migrateDatabase } from '../src/db/migrate'

const url = process.env.DATABASE_URL
if (!url) throw new Error('set DATABASE_URL to a copy of a seeded corpus')
const database = await openDatabase({ kind: 'postgres', url, max: 1 })
const [{ n }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from papers`)
const [{ done }] = await database.rows<{ done: number }>(
  sql`select count(*)::int as done from drizzle.__drizzle_migrations`,
)
console.log(`${n.toLocaleString('en-US')} papers, ${done} migrations applied before`)
const started = performance.now()
await migrateDatabase(database, url)
const seconds = (performance.now() - started) / 1000
const [after] = await database.rows<{ mice: number; mesh_only: number; size: string }>(sql`
  select (select count(*)::int from papers where search_vector @@ geroscope_tsquery('mice')) as mice,
    (select count(*)::int from papers where mesh_headings::text ilike '%"Aging"%' and not search_vector @@ geroscope_tsquery('aging')) as mesh_only,
    pg_size_pretty(pg_total_relation_size('papers')) as size`)
console.log(
  `migrated in ${seconds.toFixed(1)} s (${((seconds / n) * 1e6).toFixed(0)} µs per paper); papers now ${after.size}; ` +
    `'mice' matches ${after.mice}; papers with the MeSH heading Aging that no longer match 'aging': ${after.mesh_only}`,
)
await database.close()
