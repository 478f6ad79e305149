/**
 * GET /api/v1/papers/{id} from stored documents (issue 39): the same bytes as the answer built from the rows,
 * the licence rule included (an abstract and claim evidence under a licence that forbids reuse stay out), for
 * ids in any case, pmid: and doi: forms; fields= still cuts the live answer; a stale document is served live.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { paperDocuments } from '../../src/db/schema'
import { refreshPaperDocuments } from '../../src/documents/papers'
import { testApp, req } from '../support/app'
import { freshDatabase, type TestDatabase } from '../support/database'
import {
  bearer,
  createTestKey,
  insertClaim,
  insertEntity,
  insertPapers,
  insertStory,
  linkEntity,
  paperRow,
} from '../support/fixtures'

let database: TestDatabase
let app: Awaited<ReturnType<typeof testApp>>
let key: string

beforeAll(async () => {
  database = await freshDatabase()
  app = await testApp(database, {}, { RESPONSE_CACHE_MB: '0' })
  key = (await createTestKey(database.db, { tier: 'pro' })).key
  const db = database.db
  await insertPapers(db, [
    paperRow({
      id: 'MED-500',
      doi: '10.1000/Open.500',
      title: 'Open "quoted" title \\ with a backslash and é',
      abstractLicense: 'cc by',
    }),
    paperRow({ id: 'MED-501', abstract: 'Closed abstract that must not be served.', abstractLicense: 'cc by-nc' }),
    paperRow({
      id: 'PPR-9',
      source: 'PPR',
      preprint: true,
      doi: null,
      relevance: null,
      judgedAt: null,
      judgementModel: null,
      judgementPromptVersion: null,
      abstractLicense: null,
    }),
  ])
  await insertStory(db, 'MED-500')
  await insertStory(db, 'MED-501')
  const rapamycin = await insertEntity(db, 'intervention', 'CHEBI:9168', 'rapamycin', { chebi: 'CHEBI:9168' })
  await linkEntity(db, 'MED-500', '2026-10-02', rapamycin.id, 'studied', {
    dose: '14 ppm',
    evidence: 'rapamycin in the diet',
  })
  await linkEntity(db, 'MED-501', '2026-10-02', rapamycin.id, 'studied', {
    dose: '8 mg/kg',
    evidence: 'closed evidence',
  })
  await insertClaim(db, {
    paperId: 'MED-500',
    subjectEntityId: rapamycin.id,
    evidence: 'open evidence',
    context: { n: 40 },
  })
  await insertClaim(db, { paperId: 'MED-501', subjectEntityId: rapamycin.id, evidence: 'closed claim evidence' })
})

const raw = async (path: string) => {
  const response = await app.handle(req(path, bearer(key)))
  return `${response.status} ${response.headers.get('content-type')}\n${await response.text()}`
}

const paths = [
  '/api/v1/papers/MED-500',
  '/api/v1/papers/med-500',
  '/api/v1/papers/MED-501',
  '/api/v1/papers/PPR-9',
  '/api/v1/papers/pmid:500',
  '/api/v1/papers/doi:10.1000/open.500',
  '/api/v1/papers/MED-404',
  '/api/v1/papers/nonsense',
  '/api/v1/papers/MED-500?fields=id,abstract,story.url',
  '/api/v1/papers/MED-501?fields=abstract,claims.evidence',
]

describe('GET /api/v1/papers/{id} from stored documents', () => {
  test('answers byte for byte as when built from the rows', async () => {
    const live = await Promise.all(paths.map(raw))
    expect((await refreshPaperDocuments(database.db)).written).toBe(3)
    const stored = await Promise.all(paths.map(raw))
    expect(stored).toEqual(live)
    const closed = JSON.parse(stored[2].slice(stored[2].indexOf('\n') + 1))
    expect(closed.data.abstract).toBeNull()
    expect(closed.data.abstract_license).toBe('cc by-nc')
    expect(closed.data.claims[0].evidence).toBeNull()
    expect(JSON.stringify(closed)).not.toContain('closed claim evidence')
    expect(JSON.stringify(closed)).not.toContain('Closed abstract')
    expect(stored[0]).toContain('"site_url":"https://geroscope.test/papers/MED-500"')
  })

  test('reads the stored row, and serves a stale one from the rows', async () => {
    await refreshPaperDocuments(database.db)
    const before = await raw('/api/v1/papers/MED-500')
    // A body written behind the service's back shows: the answer is the stored row.
    await database.db
      .update(paperDocuments)
      .set({ body: '{"id":"stored"}' })
      .where(eq(paperDocuments.paperId, 'MED-500'))
    expect(await raw('/api/v1/papers/MED-500')).toBe('200 application/json\n{"data":{"id":"stored"}}')
    // A change to the paper makes it stale in the same statement: served live until refreshed.
    await database.db.execute(sql`update papers set title = 'Changed' where id = 'MED-500'`)
    const changed = await raw('/api/v1/papers/MED-500')
    expect(changed).toContain('"title":"Changed"')
    expect(changed).not.toBe(before)
    await refreshPaperDocuments(database.db)
    expect(await raw('/api/v1/papers/MED-500')).toBe(changed)
  })

  test('another base is put into the stored URLs as the live answer writes it', async () => {
    const odd = await testApp(database, {}, { RESPONSE_CACHE_MB: '0', PUBLIC_BASE_URL: 'https://example.org/géro' })
    await refreshPaperDocuments(database.db)
    const stored = await (await odd.handle(req('/api/v1/papers/MED-500', bearer(key)))).text()
    await database.db.update(paperDocuments).set({ body: null })
    const live = await (await odd.handle(req('/api/v1/papers/MED-500', bearer(key)))).text()
    expect(stored).toBe(live)
    expect(stored).toContain('"site_url":"https://example.org/g%C3%A9ro/papers/MED-500"')
  })
})
