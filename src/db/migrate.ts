/**
 * Applies the drizzle-kit migrations in `drizzle/` on either driver. On PostgreSQL an advisory lock
 * keeps several instances that start at once from migrating the same database together.
 */
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator'
import { fileURLToPath } from 'node:url'
import postgres from 'postgres'
import type { Database } from './client'

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url))

const MIGRATION_LOCK = 7_346_201 // any constant shared by every instance of the service

export async function migrateDatabase(database: Database, postgresUrl?: string): Promise<void> {
  if (database.driver === 'pglite') {
    await migratePglite(database.db as never, { migrationsFolder })
    return
  }
  if (!postgresUrl) throw new Error('migrateDatabase needs the PostgreSQL URL to take its lock')
  // One dedicated connection: the advisory lock belongs to the session that took it.
  const client = postgres(postgresUrl, { max: 1, onnotice: () => {} })
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK})`
    await migratePostgres(drizzlePostgres(client), { migrationsFolder })
    await vacuumIfRewritten(client)
    await client`select pg_advisory_unlock(${MIGRATION_LOCK})`
  } finally {
    await client.end({ timeout: 5 })
  }
}

/**
 * A migration that rewrites `papers` (drizzle/*_search_title_abstract_folding.sql rebuilt its search vectors) leaves it
 * without a visibility map, and search's index-only walks of papers_relevance_idx then read the table for
 * every entry, until a VACUUM that autovacuum, seeing no new or dead rows, would not start. VACUUM
 * cannot run inside the migration's transaction, so it runs here, once, when most of the table is
 * not marked all-visible (a table that small or that freshly written costs little to vacuum).
 */
async function vacuumIfRewritten(client: postgres.Sql): Promise<void> {
  const [papers] = await client<{ pages: number; visible: number }[]>`
    select relpages as pages, relallvisible as visible from pg_class where oid = to_regclass('papers')`
  if (papers && papers.pages > 1000 && papers.visible < papers.pages / 2) await client`vacuum (analyze) papers`
}
