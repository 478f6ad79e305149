/** `cli documents rebuild`: writes every paper's document and claim item, with progress lines on stderr, and says how many. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { executeRows } from '../../src/db/client'
import { storePapers } from '../../src/pipeline/ingest/europepmc/store'
import { cli } from '../support/cli'
import { freshDatabase, type TestDatabase } from '../support/database'
import { expectDocumentsConsistent, harvested } from './support'
import { expectClaimDocumentsConsistent } from './claim-support'
import { insertClaim } from '../support/fixtures'

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
  for (const paperId of ['MED-900001', 'MED-900002']) await insertClaim(database.db, { paperId })
  const [{ stale }] = await executeRows<{ stale: number }>(
    database.db,
    sql`select count(*)::int as stale from paper_documents where body is null`,
  )
  expect(stale).toBe(7)
  const { code, stdout, stderr } = await cli(database, 'documents', 'rebuild')
  expect(code).toBe(0)
  expect(stdout.join('\n')).toMatch(/^stored documents rebuilt: 7 written, claim documents: 2 written in \d+\.\d s$/)
  expect(stderr.join('\n')).toContain('7 / 7 documents')
  expect(stderr.join('\n')).toContain('2 / 2 claim documents')
  expect(await expectClaimDocumentsConsistent(database.db, { allFresh: true })).toBe(2)
  expect(await expectDocumentsConsistent(database.db, { allFresh: true })).toBe(7)
})
