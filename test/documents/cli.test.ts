/** `cli documents rebuild`: writes every paper's document, with progress lines on stderr, and says how many. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { executeRows } from '../../src/db/client'
import { storePapers } from '../../src/pipeline/ingest/europepmc/store'
import { cli } from '../support/cli'
import { freshDatabase, type TestDatabase } from '../support/database'
import { expectDocumentsConsistent, harvested } from './support'

let database: TestDatabase
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(async () => {
  await database.close()
})

test('documents rebuild writes every document and reports its progress', async () => {
  await storePapers(
    database.db,
    Array.from({ length: 7 }, (_, i) => harvested(i + 1)),
  )
  const [{ stale }] = await executeRows<{ stale: number }>(
    database.db,
    sql`select count(*)::int as stale from paper_documents where body is null`,
  )
  expect(stale).toBe(7)
  const { code, stdout, stderr } = await cli(database, 'documents', 'rebuild')
  expect(code).toBe(0)
  expect(stdout.join('\n')).toMatch(/^stored documents rebuilt: 7 written in \d+\.\d s$/)
  expect(stderr.join('\n')).toContain('7 / 7 documents')
  expect(await expectDocumentsConsistent(database.db, { allFresh: true })).toBe(7)
})
