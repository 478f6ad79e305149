/**
 * The serving process's refresher: documents made stale by a write, in this process or another, are rebuilt a
 * moment later without anyone asking (a data-change notification wakes it); stopped, it rebuilds nothing more.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { executeRows } from '../../src/db/client'
import { startDocumentRefresher } from '../../src/documents/refresher'
import { storePapers } from '../../src/pipeline/ingest/europepmc/store'
import { freshDatabase, type TestDatabase } from '../support/database'
import { eventually } from '../support/eventually'
import { expectDocumentsConsistent, harvested } from './support'

let database: TestDatabase
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(async () => {
  await database.close()
})

const staleCount = async () =>
  (
    await executeRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from paper_documents where body is null`,
    )
  )[0].n

test('rebuilds stale documents a moment after a change, and nothing once stopped', async () => {
  await storePapers(
    database.db,
    Array.from({ length: 5 }, (_, i) => harvested(i + 1)),
  )
  const refresher = startDocumentRefresher(database, { delayMs: 50, retryMs: 200 })
  try {
    expect(await eventually(async () => (await staleCount()) === 0, 20_000)).toBe(true)
    await refresher.idle() // nothing left and nothing scheduled: only the change's notification can wake it now
    await database.db.execute(sql`update papers set title = 'Changed by another writer' where id = ${harvested(2).id}`)
    expect(await staleCount()).toBe(1)
    expect(await eventually(async () => (await staleCount()) === 0, 20_000)).toBe(true)
    expect(await expectDocumentsConsistent(database.db, { allFresh: true })).toBe(5)
  } finally {
    await refresher.stop()
  }
  await database.db.execute(sql`update papers set title = 'After the stop' where id = ${harvested(3).id}`)
  await Bun.sleep(500)
  expect(await staleCount()).toBe(1)
})
