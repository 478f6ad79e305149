/**
 * Every test gets a database of its own, on the driver the run was started with:
 * - no DATABASE_URL: an in-memory PGlite, cloned from one migrated template per test process;
 * - DATABASE_URL set: a PostgreSQL database created from a migrated template database that this
 *   run made for itself; test/support/setup.ts drops them all when the run ends.
 */
import { PGlite } from '@electric-sql/pglite'
import postgres from 'postgres'
import { createPglite, openDatabase, type Database } from '../../src/db/client'
import { migrateDatabase } from '../../src/db/migrate'

const serverUrl = process.env.DATABASE_URL?.trim() || null
export const testDriver: 'pglite' | 'postgres' = serverUrl ? 'postgres' : 'pglite'

const runId = `${process.pid}_${Date.now().toString(36)}`
const created: string[] = []
let counter = 0

let pgliteTemplate: Promise<PGlite> | null = null
let postgresTemplate: Promise<string> | null = null

/** The URL of database `name` on the configured PostgreSQL server. */
export function databaseUrl(name: string): string {
  const url = new URL(serverUrl!)
  url.pathname = `/${name}`
  return url.href
}

/** A connection to the database DATABASE_URL names, used only for CREATE and DROP DATABASE. */
function admin() {
  return postgres(serverUrl!, { max: 1, onnotice: () => {} })
}

async function makePgliteTemplate(): Promise<PGlite> {
  const client = await createPglite()
  await migrateDatabase(await openDatabase({ kind: 'pglite-instance', client }))
  return client
}

async function makePostgresTemplate(): Promise<string> {
  const name = `geroscope_test_${runId}_template`
  const sql = admin()
  try {
    await sql.unsafe(`create database "${name}"`)
  } finally {
    await sql.end()
  }
  created.push(name)
  const url = databaseUrl(name)
  const database = await openDatabase({ kind: 'postgres', url, max: 1 })
  await migrateDatabase(database, url)
  await database.close() // a template must have no open connections to be copied
  return name
}

export type TestDatabase = Database & { url: string | null }

/** Builds the migrated template now (the preload calls it) rather than inside the first test's hook. */
export async function warmTemplate(): Promise<void> {
  if (serverUrl) await (postgresTemplate ??= makePostgresTemplate())
  else await (pgliteTemplate ??= makePgliteTemplate())
}

/** A new, migrated, empty database. Close it when done (afterAll). */
export async function freshDatabase(): Promise<TestDatabase> {
  if (!serverUrl) {
    pgliteTemplate ??= makePgliteTemplate()
    const client = (await (await pgliteTemplate).clone()) as PGlite
    return { ...(await openDatabase({ kind: 'pglite-instance', client })), url: null }
  }
  postgresTemplate ??= makePostgresTemplate()
  const template = await postgresTemplate
  const name = `geroscope_test_${runId}_${++counter}`
  const sql = admin()
  try {
    await sql.unsafe(`create database "${name}" template "${template}"`)
  } finally {
    await sql.end()
  }
  created.push(name)
  const url = databaseUrl(name)
  return { ...(await openDatabase({ kind: 'postgres', url, max: 4 })), url }
}

/** A name for a database the caller creates itself (e.g. the CLI's own migrate test). */
export function scratchDatabaseName(label: string): string {
  const name = `geroscope_test_${runId}_${label}_${++counter}`
  created.push(name)
  return name
}

/**
 * Drops every database this run created; called once by the preload's afterAll. Each DROP DATABASE
 * waits for a checkpoint, which takes seconds on a busy server; drops running side by side share
 * them, so a few go at once.
 */
export async function dropTestDatabases(): Promise<void> {
  if (!serverUrl || created.length === 0) return
  const sql = postgres(serverUrl!, { max: 4, onnotice: () => {} })
  const names = [...created].reverse()
  let next = 0
  try {
    await Promise.all(Array.from({ length: 4 }, async () => {
      while (next < names.length) await sql.unsafe(`drop database if exists "${names[next++]}" with (force)`)
    }))
  } finally {
    await sql.end()
  }
}
