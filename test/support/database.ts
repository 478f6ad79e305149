/**
 * Every test gets a database of its own, on the driver the run was started with:
 * - no DATABASE_URL: an in-memory PGlite, cloned from one migrated template per test process;
 * - DATABASE_URL set: a PostgreSQL database created from a migrated template database that this
 *   run made for itself; test/support/setup.ts drops them all when the run ends.
 */
import type { PGlite } from '@electric-sql/pglite'
import { spawn } from 'node:child_process'
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
 * them, so a few go at once. A server stuck on long checkpoints (after a bulk load, say) must not
 * fail a run whose tests all passed: after two minutes the rest are handed to a detached process
 * (test/support/drop-databases.ts) that goes on dropping them after the run has ended.
 */
export async function dropTestDatabases(): Promise<void> {
  if (!serverUrl || created.length === 0) return
  const sql = postgres(serverUrl!, { max: 4, onnotice: () => {} })
  const names = [...created].reverse()
  let next = 0
  let handedOver = false
  const dropping = Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < names.length && !handedOver)
        await sql.unsafe(`drop database if exists "${names[next++]}" with (force)`)
    }),
  )
  const patience = new Promise<'late'>((resolve) => setTimeout(resolve, 120_000, 'late').unref?.())
  if ((await Promise.race([dropping.then(() => 'done' as const), patience])) === 'late') {
    handedOver = true
    const left = names.slice(Math.max(0, next - 4)) // those in flight are dropped again: if exists
    console.log(`dropping ${left.length} test databases in the background (the server is slow to checkpoint)`)
    const child = spawn(
      process.execPath,
      [new URL('./drop-databases.ts', import.meta.url).pathname, serverUrl!, ...left],
      {
        detached: true,
        stdio: 'ignore',
      },
    )
    child.unref()
    await sql.end({ timeout: 0 })
    return
  }
  await sql.end()
}
