/**
 * GET /api/v1/entities/{type}/{key} from stored first pages (issue 39): the same bytes as the answer built from the
 * rows, its signed cursor included (and the page it leads to), the licence rule in the papers' abstracts, another
 * base; min_relevance, cursor, another limit and fields= keep the live path; an unknown entity is still 404 and a name
 * or alias still a 308 to the entity's own URL; a stale page is served live.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { entityDocuments } from '../../src/db/schema'
import { refreshEntityDocuments } from '../../src/documents/entities'
import { testApp, req } from '../support/app'
import { freshDatabase, type TestDatabase } from '../support/database'
import {
  bearer,
  createTestKey,
  insertClaim,
  insertEntity,
  insertPapers,
  linkEntity,
  paperRow,
} from '../support/fixtures'
import { expectEntityDocumentsConsistent } from './entity-support'

let database: TestDatabase
let app: Awaited<ReturnType<typeof testApp>>
let key: string
let rapamycinId: number

beforeAll(async () => {
  database = await freshDatabase()
  app = await testApp(database, {}, { RESPONSE_CACHE_MB: '0' })
  key = (await createTestKey(database.db, { tier: 'pro' })).key
  const db = database.db
  // 30 papers, so the first page of 25 has a next page; some closed, some unjudged, two on one day.
  await insertPapers(
    db,
    Array.from({ length: 30 }, (_, i) =>
      paperRow({
        id: `MED-${600 + i}`,
        title: i === 0 ? 'Open "quoted" title \\ with a backslash and é' : `Paper ${i}`,
        indexedDate: `2026-10-${String(1 + (i % 28)).padStart(2, '0')}`,
        abstractLicense: i % 3 === 0 ? 'cc by-nc' : 'cc by',
        abstract: i % 3 === 0 ? 'Closed abstract that must not be served.' : 'Open abstract.',
        relevance: i % 4 === 0 ? null : (i % 3) + 1,
        judgedAt: i % 4 === 0 ? null : new Date('2026-10-05T00:00:00Z'),
      }),
    ),
  )
  const rapamycin = await insertEntity(db, 'intervention', 'CHEBI:9168', 'rapamycin', { chebi: 'CHEBI:9168' })
  rapamycinId = rapamycin.id
  await db.execute(sql`update entities set aliases = array['sirolimus'] where id = ${rapamycin.id}`)
  await insertEntity(db, 'gene', 'HGNC:1', 'A1BG')
  for (let i = 0; i < 30; i++) {
    const date = `2026-10-${String(1 + (i % 28)).padStart(2, '0')}`
    await linkEntity(db, `MED-${600 + i}`, date, rapamycin.id, 'studied', { dose: '14 ppm' })
    if (i % 5 === 0) await linkEntity(db, `MED-${600 + i}`, date, rapamycin.id, 'intervention')
  }
  await insertClaim(db, { paperId: 'MED-600', subjectEntityId: rapamycin.id })
  await insertClaim(db, { paperId: 'MED-601', subjectEntityId: rapamycin.id, objectEntityId: rapamycin.id })
  await db.execute(sql`update entities set paper_count = 30 where id = ${rapamycin.id}`)
})

const raw = async (path: string) => {
  const response = await app.handle(req(path, bearer(key)))
  const location = response.headers.get('location')
  return `${response.status} ${response.headers.get('content-type')}${location ? ` -> ${location}` : ''}\n${await response.text()}`
}

const ENTITY = '/api/v1/entities/intervention/CHEBI%3A9168'
const paths = [
  ENTITY,
  `${ENTITY}?limit=25`,
  `${ENTITY}?limit=7`,
  `${ENTITY}?min_relevance=2`,
  `${ENTITY}?fields=name,papers.id,papers.abstract`,
  '/api/v1/entities/gene/HGNC%3A1',
  '/api/v1/entities/intervention/sirolimus',
  '/api/v1/entities/intervention/sirolimus?limit=3',
  '/api/v1/entities/intervention/chebi%3A9168',
  '/api/v1/entities/intervention/CHEBI%3A404',
  '/api/v1/entities/nonsense/x',
  '/api/v1/entities/intervention/a%00b',
]

const body = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\n') + 1))

describe('GET /api/v1/entities/{type}/{key} from stored pages', () => {
  test('answers byte for byte as when built from the rows, the next page included', async () => {
    await database.db.update(entityDocuments).set({ body: null })
    const live = await Promise.all(paths.map(raw))
    expect((await refreshEntityDocuments(database.db)).written).toBe(2)
    expect(await expectEntityDocumentsConsistent(database.db, { allFresh: true })).toBe(2)
    const stored = await Promise.all(paths.map(raw))
    expect(stored).toEqual(live)
    const first = body(stored[0])
    expect(first.data.papers).toHaveLength(25)
    expect(first.data.claim_count).toBe(2)
    expect(first.pagination.has_more).toBe(true)
    expect(JSON.stringify(first)).not.toContain('Closed abstract')
    expect(first.data.papers[0].site_url).toStartWith('https://geroscope.test/papers/')
    expect(stored.map((answer) => answer.slice(0, answer.indexOf(' ')))).toEqual([
      '200',
      '200',
      '200',
      '200',
      '200',
      '200',
      '308',
      '308',
      '308',
      '404',
      '404',
      '404',
    ])
    expect(stored[7]).toContain(`-> https://geroscope.test${ENTITY}?limit=3\n`)
    // The stored page's cursor leads where the live one does.
    const nextPath = `${ENTITY}?cursor=${encodeURIComponent(first.pagination.next_cursor)}`
    const next = await raw(nextPath)
    expect(body(next).data.papers.map((p: { id: string }) => p.id)).toHaveLength(5)
    await database.db.update(entityDocuments).set({ body: null })
    expect(await raw(nextPath)).toBe(next)
  })

  test('reads the stored row, and serves a stale one from the rows', async () => {
    await refreshEntityDocuments(database.db)
    const before = await raw(ENTITY)
    // A page written behind the service's back shows: the answer is the stored row.
    await database.db
      .update(entityDocuments)
      .set({ body: '{"name":"stored"}', nextPosition: null })
      .where(eq(entityDocuments.entityId, rapamycinId))
    expect(await raw(ENTITY)).toBe(
      '200 application/json\n{"data":{"name":"stored"},"pagination":{"next_cursor":null,"has_more":false,"limit":25}}',
    )
    // A paper of the page retitled makes it stale in the same statement: served live until refreshed.
    await database.db.execute(sql`update papers set title = 'Changed' where id = 'MED-627'`)
    const changed = await raw(ENTITY)
    expect(changed).toContain('"title":"Changed"')
    expect(changed).not.toBe(before)
    expect((await refreshEntityDocuments(database.db)).written).toBe(1)
    expect(await raw(ENTITY)).toBe(changed)
  })

  test('another base is put into the stored URLs as the live answer writes it', async () => {
    const odd = await testApp(database, {}, { RESPONSE_CACHE_MB: '0', PUBLIC_BASE_URL: 'https://example.org/géro' })
    await refreshEntityDocuments(database.db)
    const stored = await (await odd.handle(req(ENTITY, bearer(key)))).text()
    await database.db.update(entityDocuments).set({ body: null })
    const live = await (await odd.handle(req(ENTITY, bearer(key)))).text()
    expect(stored).toBe(live)
    expect(stored).toContain('"api_url":"https://example.org/g%C3%A9ro/api/v1/entities/intervention/CHEBI%3A9168"')
  })
})
