/** `cli documents rebuild`: writes every paper's document, claim item and entity page, with progress lines on stderr, and says how many. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { executeRows } from '../../src/db/client'
import { storePapers } from '../../src/pipeline/ingest/europepmc/store'
import { cli } from '../support/cli'
import { freshDatabase, type TestDatabase } from '../support/database'
import { expectDocumentsConsistent, harvested } from './support'
import { expectClaimDocumentsConsistent } from './claim-support'
import { expectEntityDocumentsConsistent } from './entity-support'
import { insertClaim, insertEntity, linkEntity } from '../support/fixtures'

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
  const [gene, drug] = [
    await insertEntity(database.db, 'gene', 'HGNC:1', 'A1BG'),
    await insertEntity(database.db, 'intervention', 'CHEBI:9168', 'rapamycin'),
  ]
  await linkEntity(database.db, 'MED-900001', '2026-10-01', drug.id, 'studied')
  await insertClaim(database.db, { paperId: 'MED-900003', subjectEntityId: gene.id })
  const [{ stale }] = await executeRows<{ stale: number }>(
    database.db,
    sql`select count(*)::int as stale from paper_documents where body is null`,
  )
  expect(stale).toBe(7)
  // The harvests' own entities (MeSH headings) are rebuilt too.
  const [{ entities }] = await executeRows<{ entities: number }>(
    database.db,
    sql`select count(*)::int as entities from entities`,
  )
  expect(entities).toBeGreaterThanOrEqual(2)
  const { code, stdout, stderr } = await cli(database, 'documents', 'rebuild')
  expect(code).toBe(0)
  expect(stdout.join('\n')).toMatch(
    new RegExp(
      `^stored documents rebuilt: 7 written, claim documents: 3 written, entity documents: ${entities} written in \\d+\\.\\d s$`,
    ),
  )
  expect(stderr.join('\n')).toContain('7 / 7 documents')
  expect(stderr.join('\n')).toContain('3 / 3 claim documents')
  expect(stderr.join('\n')).toContain(`${entities} / ${entities} entity documents`)
  expect(await expectClaimDocumentsConsistent(database.db, { allFresh: true })).toBe(3)
  expect(await expectEntityDocumentsConsistent(database.db, { allFresh: true })).toBe(entities)
  expect(await expectDocumentsConsistent(database.db, { allFresh: true })).toBe(7)
})
