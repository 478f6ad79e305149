/**
 * GET /api/v1/claims from stored items (issue 39): the same bytes as the page built from the rows, for the filters,
 * pages after a cursor, facets, CSV and another base; evidence under a licence that forbids reuse stays out; a stale
 * item is built from the rows in the page's own statement, never served stale.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { refreshClaimDocuments } from '../../src/documents/claims'
import { listClaims } from '../../src/resources/claims/queries'
import { serializeClaimItem } from '../../src/resources/claims/serialize'
import { testApp, req } from '../support/app'
import { freshDatabase, type TestDatabase } from '../support/database'
import { bearer, createTestKey, insertClaim, insertEntity, insertPapers, paperRow } from '../support/fixtures'

let database: TestDatabase
let app: Awaited<ReturnType<typeof testApp>>
let key: string

beforeAll(async () => {
  database = await freshDatabase()
  app = await testApp(database, {}, { RESPONSE_CACHE_MB: '0' })
  key = (await createTestKey(database.db, { tier: 'pro' })).key
  const db = database.db
  await insertPapers(db, [
    paperRow({ id: 'MED-500', title: 'Open "quoted" title \\ with é', abstractLicense: 'cc by' }),
    paperRow({ id: 'MED-501', abstractLicense: 'cc by-nc' }),
    paperRow({ id: 'PPR-9', source: 'PPR', preprint: true, doi: null, abstractLicense: null }),
  ])
  const rapamycin = await insertEntity(db, 'intervention', 'CHEBI:9168', 'rapamycin', { chebi: 'CHEBI:9168' })
  const lifespan = await insertEntity(db, 'phenotype', 'lifespan', 'lifespan', {})
  for (let i = 0; i < 9; i++)
    await insertClaim(db, {
      paperId: ['MED-500', 'MED-501', 'PPR-9'][i % 3],
      subjectEntityId: i % 2 ? rapamycin.id : null,
      objectEntityId: i % 4 ? lifespan.id : null,
      relation: i % 2 ? 'extends_lifespan' : 'decreases',
      organism: i % 3 ? 'Mus musculus' : 'Caenorhabditis elegans',
      evidence: `evidence ${i} \u2028 with "quotes"`,
      context: i % 2 ? { n: i } : {},
      createdAt: new Date(Date.UTC(2026, 9, 2, 6, 5, i % 5)), // ties in created_at: the id breaks them
    })
})

const raw = async (path: string, headers: Record<string, string> = {}, on = app) => {
  const response = await on.handle(req(path, { headers: { ...bearer(key).headers, ...headers } }))
  return `${response.status} ${response.headers.get('content-type')} ${response.headers.get('link')}\n${await response.text()}`
}

/** Each path, and the page after it where there is one. */
async function answers(paths: string[], on = app): Promise<string[]> {
  const out: string[] = []
  for (const path of paths) {
    const first = await raw(path, {}, on)
    out.push(first)
    const cursor = /"next_cursor":"([^"]+)"/.exec(first)?.[1]
    if (cursor) out.push(await raw(`${path}${path.includes('?') ? '&' : '?'}cursor=${cursor}`, {}, on))
  }
  out.push(await raw('/api/v1/claims?limit=4', { accept: 'text/csv' }, on))
  return out
}

const paths = [
  '/api/v1/claims',
  '/api/v1/claims?limit=2',
  '/api/v1/claims?limit=3&subject=rapamycin',
  '/api/v1/claims?object=lifespan&limit=2',
  '/api/v1/claims?organism=mice&limit=2',
  '/api/v1/claims?relation=decreases&limit=1',
  '/api/v1/claims?paper_id=med-501',
  '/api/v1/claims?count=true&group_by=organism&limit=2',
  '/api/v1/claims?fields=id,evidence,paper.site_url&limit=3',
  '/api/v1/claims?relation=nothing',
  '/api/v1/claims?limit=0',
]

const stale = () => database.db.execute(sql`update claim_documents set body = null`)

describe('GET /api/v1/claims from stored items', () => {
  test('answers byte for byte as when every item is built from the rows', async () => {
    const live = await answers(paths)
    expect((await refreshClaimDocuments(database.db)).written).toBe(9)
    const stored = await answers(paths)
    expect(stored).toEqual(live)
    expect(stored[0]).toContain('"site_url":"https://geroscope.test/papers/MED-500"')
    expect(stored[0]).not.toContain('evidence 1 ') // MED-501's licence forbids reuse
    expect(stored[0]).toContain('"evidence":"evidence 0 \u2028 with \\"quotes\\""')
    // Half the items stored, half stale: the same page.
    await database.db.execute(sql`update claim_documents set body = null where claim_id % 2 = 0`)
    expect(await answers(paths)).toEqual(live)
  })

  test('the items are those the list query and serializer make, in order', async () => {
    await refreshClaimDocuments(database.db)
    const rows = await listClaims(database.db, {}, 25, null)
    const items = rows.map((r) => JSON.stringify(serializeClaimItem(r, 'https://geroscope.test'))).join(',')
    expect(await raw('/api/v1/claims')).toStartWith(`200 application/json null\n{"data":[${items}],"pagination":`)
  })

  test('reads the stored item, and builds a stale one from the rows', async () => {
    await refreshClaimDocuments(database.db)
    const [{ id }] = (await listClaims(database.db, {}, 1, null)).map((r) => r.claim)
    // A body written behind the service's back shows: the page is the stored items.
    await database.db.execute(sql`update claim_documents set body = '{"id":"stored"}' where claim_id = ${id}`)
    expect(await raw('/api/v1/claims?limit=1')).toContain('{"data":[{"id":"stored"}]')
    // A change to the claim's paper makes it stale in the same statement: built from the rows until refreshed.
    await database.db.execute(
      sql`update papers set title = 'Changed' where id = (select paper_id from claims where id = ${id})`,
    )
    const changed = await raw('/api/v1/claims?limit=1')
    expect(changed).toContain('"title":"Changed"')
    await refreshClaimDocuments(database.db)
    expect(await raw('/api/v1/claims?limit=1')).toBe(changed)
  })

  test('another base is put into the stored URLs as the live answer writes it', async () => {
    const odd = await testApp(database, {}, { RESPONSE_CACHE_MB: '0', PUBLIC_BASE_URL: 'https://example.org/géro' })
    await refreshClaimDocuments(database.db)
    const stored = await answers(paths, odd)
    await stale()
    expect(stored).toEqual(await answers(paths, odd))
    expect(stored[0]).toContain('"site_url":"https://example.org/g%C3%A9ro/papers/')
  })
})
