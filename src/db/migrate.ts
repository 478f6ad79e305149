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
    await client`select pg_advisory_unlock(${MIGRATION_LOCK})`
  } finally {
    await client.end({ timeout: 5 })
  }
}
