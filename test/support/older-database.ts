/**
 * A test database migrated only as far as the migration before a given one, so a test can store
 * rows as they were written then, run the rest (src/db/migrate.ts) and check what it made of them.
 */
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { createPglite, openDatabase, type Database } from '../../src/db/client'
import { migrateDatabase, migrationsFolder } from '../../src/db/migrate'
import { databaseUrl, scratchDatabaseName, testDriver } from './database'

export type OlderDatabase = { database: Database; migrateRest: () => Promise<void>; close: () => Promise<void> }

/** The migrations as they were before the one whose tag ends with `tag` (the journal cut before it). */
export function migrationsBefore(tag: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'geroscope-migrations-'))
  cpSync(migrationsFolder, folder, { recursive: true })
  const journalPath = join(folder, 'meta', '_journal.json')
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] }
  const at = journal.entries.findIndex((e) => e.tag.endsWith(tag))
  if (at === -1) throw new Error(`no migration named *${tag}`)
  journal.entries = journal.entries.slice(0, at)
  writeFileSync(journalPath, JSON.stringify(journal))
  return folder
}

/** A fresh database on the test driver, migrated up to (not including) the migration named `*tag`. */
export async function databaseBefore(tag: string, label: string): Promise<OlderDatabase> {
  const folder = migrationsBefore(tag)
  let database: Database
  let url: string | undefined
  if (testDriver === 'postgres') {
    const name = scratchDatabaseName(label)
    const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create database "${name}"`)
    await admin.end()
    url = databaseUrl(name)
    const client = postgres(url, { max: 1, onnotice: () => {} })
    await migratePostgres(drizzlePostgres(client), { migrationsFolder: folder })
    await client.end()
    database = await openDatabase({ kind: 'postgres', url, max: 2 })
  } else {
    const client = await createPglite()
    database = await openDatabase({ kind: 'pglite-instance', client })
    await migratePglite(database.db as never, { migrationsFolder: folder })
  }
  return {
    database,
    migrateRest: () => migrateDatabase(database, url),
    close: async () => {
      await database.close()
      rmSync(folder, { recursive: true, force: true })
    },
  }
}
