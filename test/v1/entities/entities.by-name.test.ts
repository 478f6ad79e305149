/**
 * Entities by any name: /api/v1/entities/{type}/{name or alias} and the site's entity page
 * answer a permanent redirect (308) to the entity's own URL when the name names exactly one entity of
 * that type (query string kept); an unknown name stays 404 not_found; a name two entities of the type
 * share is a 404 that names both.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { entities } from '../../../src/db/schema'
import { refreshEntityCounts } from '../../../src/jobs/refresh-entity-counts'
import { entityAliases } from '../../../src/lexicon/aliases'
import { normalizeAlias } from '../../../src/lexicon/normalize'
import { req, testApp } from '../../support/app'
import { freshDatabase, type TestDatabase } from '../../support/database'
import { bearer, createTestKey, insertEntity, insertPapers, linkEntity, paperRow } from '../../support/fixtures'

let database: TestDatabase
let app: Awaited<ReturnType<typeof testApp>>
let key: string
const BASE = 'https://geroscope.test'

/** An entity row with the aliases the lexicon gives it (plus `extra`), as the analysis stores it. */
async function entity(type: string, entityKey: string, name: string, extra: string[] = []) {
  const row = await insertEntity(database.db, type, entityKey, name)
  await database.db
    .update(entities)
    .set({ aliases: [...entityAliases(type, entityKey, name), ...extra.map(normalizeAlias)] })
    .where(eq(entities.id, row.id))
  await linkEntity(database.db, 'MED-1', '2026-10-02', row.id, 'studied')
  return row
}

beforeAll(async () => {
  database = await freshDatabase()
  app = await testApp(database)
  key = (await createTestKey(database.db, { tier: 'pro' })).key
  await insertPapers(database.db, [paperRow({ id: 'MED-1' })])
  await entity('gene', 'NCBIGene:1029', 'CDKN2A')
  await entity('gene', 'NCBIGene:23411', 'SIRT1')
  await entity('intervention', 'CHEBI:9168', 'rapamycin')
  await entity('intervention', 'CHEBI:15927', 'nicotinamide riboside')
  // Two genes an alias could mean (made up for the test): neither is chosen.
  await entity('gene', 'NCBIGene:900001', 'GENEA', ['SHARED1'])
  await entity('gene', 'NCBIGene:900002', 'GENEB', ['SHARED1'])
  await refreshEntityCounts(database.db)
})
afterAll(async () => {
  await database.close()
})

const api = (path: string) => app.handle(req(path, bearer(key)))

describe('GET /api/v1/entities/{type}/{name}', () => {
  test.each([
    ['/gene/CDKN2A', 'gene/NCBIGene%3A1029'],
    ['/gene/p16', 'gene/NCBIGene%3A1029'],
    ['/gene/p16INK4a', 'gene/NCBIGene%3A1029'],
    ['/gene/p16-INK4a', 'gene/NCBIGene%3A1029'],
    ['/gene/sirt1', 'gene/NCBIGene%3A23411'],
    ['/intervention/sirolimus', 'intervention/CHEBI%3A9168'],
    ['/intervention/NR', 'intervention/CHEBI%3A15927'],
    ['/intervention/chebi:9168', 'intervention/CHEBI%3A9168'],
  ])('%s is a 308 to %s', async (path, target) => {
    const response = await api(`/api/v1/entities${path}`)
    expect(response.status).toBe(308)
    expect(response.headers.get('location')).toBe(`${BASE}/api/v1/entities/${target}`)
    expect(response.headers.get('x-request-id')).not.toBeNull()
  })

  test('the query string is kept, and the URL it names answers the entity', async () => {
    const response = await api('/api/v1/entities/intervention/sirolimus?limit=1&min_relevance=0')
    expect(response.status).toBe(308)
    const location = response.headers.get('location')!
    expect(location).toBe(`${BASE}/api/v1/entities/intervention/CHEBI%3A9168?limit=1&min_relevance=0`)
    const moved = await api(new URL(location).pathname + new URL(location).search)
    expect(moved.status).toBe(200)
    expect((await moved.json()).data).toMatchObject({ type: 'intervention', key: 'CHEBI:9168', name: 'rapamycin' })
  })

  test('asked again (the answer cache holds pages), still a 308', async () => {
    for (let i = 0; i < 2; i++) expect((await api('/api/v1/entities/gene/p16')).status).toBe(308)
  })

  test('the canonical key answers 200 as before', async () => {
    expect((await api('/api/v1/entities/gene/NCBIGene%3A1029')).status).toBe(200)
  })

  test('a name of another type is not followed across types: 404', async () => {
    const response = await api('/api/v1/entities/gene/sirolimus')
    expect(response.status).toBe(404)
    expect((await response.json()).error).toEqual({
      status: 404,
      code: 'not_found',
      message: expect.stringContaining('no entity of type "gene" with key "sirolimus"'),
    })
  })

  test('an unknown name is 404 not_found', async () => {
    const response = await api('/api/v1/entities/gene/NOSUCHGENE')
    expect(response.status).toBe(404)
    expect((await response.json()).error.code).toBe('not_found')
  })

  test('a name two entities of the type share is a 404 naming both', async () => {
    const response = await api('/api/v1/entities/gene/shared1')
    expect(response.status).toBe(404)
    const { error } = await response.json()
    expect(error.code).toBe('not_found')
    expect(error.message).toContain('names 2 entities of type "gene"')
    expect(error.message).toContain('NCBIGene:900001 (GENEA)')
    expect(error.message).toContain('NCBIGene:900002 (GENEB)')
  })

  test('the OpenAPI document describes the 308', async () => {
    const doc = await (await app.handle(req('/api/v1/openapi.json'))).json()
    const operation = doc.paths['/api/v1/entities/{type}/{key}'].get
    expect(operation.responses['308'].description).toContain('permanent redirect')
    expect(operation.responses['308'].headers.Location).toEqual({ $ref: '#/components/headers/Location' })
    expect(doc.components.headers.Location).toBeDefined()
  })
})

describe("the site's entity page by any name", () => {
  test('/entities/gene/p16 is a 308 to the CDKN2A page, query string kept', async () => {
    const response = await app.handle(req('/entities/gene/p16?after=2026-10-02~MED-1'))
    expect(response.status).toBe(308)
    expect(response.headers.get('location')).toBe(`${BASE}/entities/gene/NCBIGene%3A1029?after=2026-10-02~MED-1`)
  })

  test('/entities/intervention/sirolimus is a 308 to the rapamycin page, which answers', async () => {
    const response = await app.handle(req('/entities/intervention/sirolimus'))
    expect(response.status).toBe(308)
    const page = await app.handle(req(new URL(response.headers.get('location')!).pathname))
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<h1>rapamycin</h1>')
  })

  test('an unknown name is a 404 page; a shared one names the entities', async () => {
    expect((await app.handle(req('/entities/gene/NOSUCHGENE'))).status).toBe(404)
    const shared = await app.handle(req('/entities/gene/shared1'))
    expect(shared.status).toBe(404)
    expect(await shared.text()).toContain('NCBIGene:900001')
  })
})
