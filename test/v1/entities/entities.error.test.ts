import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { encodeCursor } from '../../../src/http/cursor'
import { TEST_SECRET, req } from '../../support/app'
import { freshDatabase, type TestDatabase } from '../../support/database'
import { bearer, createTestKey, insertPapers, linkEntity, paperRow } from '../../support/fixtures'
import { insertCountedEntity, knowledgeApp } from '../../support/fixtures-knowledge'

let database: TestDatabase
let app: Awaited<ReturnType<typeof knowledgeApp>>
let key: string

beforeAll(async () => {
  database = await freshDatabase()
  app = await knowledgeApp(database)
  key = (await createTestKey(database.db, { tier: 'pro' })).key
  await insertPapers(database.db, [paperRow({ id: 'MED-1' }), paperRow({ id: 'MED-2' }), paperRow({ id: 'MED-3' })])
  const rapamycin = await insertCountedEntity(database.db, 'intervention', 'CHEBI:9168', 'rapamycin', 3)
  const metformin = await insertCountedEntity(database.db, 'intervention', 'CHEBI:6801', 'metformin', 2)
  await insertCountedEntity(database.db, 'gene', 'HGNC:3942', 'MTOR', 1)
  for (const id of ['MED-1', 'MED-2', 'MED-3']) await linkEntity(database.db, id, '2026-10-02', rapamycin.id, 'studied')
  for (const id of ['MED-1', 'MED-2']) await linkEntity(database.db, id, '2026-10-02', metformin.id, 'studied')
})
afterAll(async () => {
  await database.close()
})

async function call(path: string) {
  const response = await app.handle(req(path, bearer(key)))
  return { response, body: await response.json() }
}

async function expectError(path: string, status: 400 | 404, message: string) {
  const { response, body } = await call(path)
  expect(response.status).toBe(status)
  expect(response.headers.get('cache-control')).toBe('no-store')
  expect(response.headers.get('x-ratelimit-remaining')).not.toBeNull() // a usable key was presented
  expect(body).toEqual({
    error: {
      status,
      code: status === 400 ? 'invalid_parameter' : 'not_found',
      message: expect.stringContaining(message),
    },
  })
}

const nextCursor = async (path: string): Promise<string> => (await call(path)).body.pagination.next_cursor

describe('GET /api/v1/entities refuses bad input with 400 invalid_parameter naming the parameter', () => {
  test.each([
    ['an unknown parameter', '?name=rapamycin', 'unknown parameter "name"; this endpoint takes type, q, cursor, limit'],
    ['a paper filter', '?min_relevance=2', 'unknown parameter "min_relevance"'],
    [
      'an unknown type',
      '?type=drug',
      'type has unknown value "drug"; allowed: intervention, gene, pathway, hallmark, phenotype, organism, tissue, disease, biomarker, mesh',
    ],
    ['a type in the wrong case', '?type=Gene', 'type has unknown value "Gene"'],
    ['a list of types', '?type=gene,intervention', 'type has unknown value "gene,intervention"'],
    ['an empty type', '?type=', 'type has unknown value ""'],
    ['a repeated type', '?type=gene&type=mesh', 'type is given more than once'],
    ['an empty q', '?q=', 'q must not be empty'],
    ['a q holding NUL', '?q=%00', 'q must not contain the NUL character (%00)'],
    ['a q over 200 characters', `?q=${'a'.repeat(201)}`, 'q must be at most 200 characters (got 201)'],
    ['limit 0', '?limit=0', 'limit must be an integer from 1 to 100'],
    ['limit 101', '?limit=101', 'limit must be an integer from 1 to 100'],
    ['a non-numeric limit', '?limit=ten', 'limit must be an integer'],
    ['a garbage cursor', '?cursor=abc', 'cursor is not a cursor this API issued'],
    ['an empty cursor', '?cursor=', 'cursor must not be empty'],
  ])('%s', async (_name, query, message) => {
    await expectError(`/api/v1/entities${query}`, 400, message)
  })

  test('a q of 200 characters is fine', async () => {
    expect((await call(`/api/v1/entities?q=${'a'.repeat(200)}`)).response.status).toBe(200)
  })

  test('a forged cursor is refused', async () => {
    const forged = encodeCursor('another-secret-of-sufficient-length!!', 'entities', {}, [1, 'gene', 'HGNC:3942'])
    await expectError(`/api/v1/entities?cursor=${forged}`, 400, 'bad signature')
  })

  test('a cursor reused with another type or q is refused, but another limit is fine', async () => {
    const cursor = await nextCursor('/api/v1/entities?limit=1')
    await expectError(`/api/v1/entities?limit=1&type=gene&cursor=${cursor}`, 400, 'cursor was made with other filters')
    await expectError(`/api/v1/entities?limit=1&q=r&cursor=${cursor}`, 400, 'cursor was made with other filters')
    const typed = await nextCursor('/api/v1/entities?limit=1&type=intervention')
    await expectError(`/api/v1/entities?limit=1&cursor=${typed}`, 400, 'cursor was made with other filters')
    const { response, body } = await call(`/api/v1/entities?limit=5&cursor=${cursor}`)
    expect(response.status).toBe(200)
    expect(body.data.map((e: { key: string }) => e.key)).toEqual(['CHEBI:6801', 'HGNC:3942'])
  })

  test('a cursor from another endpoint is refused', async () => {
    const fromPapers = await nextCursor('/api/v1/entities/intervention/CHEBI:9168?limit=1')
    await expectError(`/api/v1/entities?cursor=${fromPapers}`, 400, 'cursor belongs to another endpoint')
    const fromClaims = encodeCursor(TEST_SECRET, 'claims', {}, ['2026-10-01T00:00:00.000000Z', 1])
    await expectError(`/api/v1/entities?cursor=${fromClaims}`, 400, 'cursor belongs to another endpoint')
  })
})

describe('GET /api/v1/entities/{type}/{key} refuses bad input', () => {
  const path = '/api/v1/entities/intervention/CHEBI%3A9168'

  test.each([
    [
      'an unknown parameter',
      '?type=gene',
      'unknown parameter "type"; this endpoint takes min_relevance, cursor, limit',
    ],
    ['a negative min_relevance', '?min_relevance=-0.5', 'min_relevance must be a number from 0 to 3'],
    ['min_relevance above 3', '?min_relevance=3.01', 'min_relevance must be a number from 0 to 3'],
    ['a non-numeric min_relevance', '?min_relevance=core', 'min_relevance must be a number'],
    ['an empty min_relevance', '?min_relevance=', 'min_relevance must be a number'],
    ['limit 101', '?limit=101', 'limit must be an integer from 1 to 100'],
    ['a garbage cursor', '?cursor=abc.def', 'cursor is not a cursor this API issued'],
  ])('%s', async (_name, query, message) => {
    await expectError(`${path}${query}`, 400, message)
  })

  test('a cursor is bound to its entity and its min_relevance', async () => {
    const cursor = await nextCursor(`${path}?limit=1`)
    await expectError(
      `/api/v1/entities/intervention/CHEBI:6801?limit=1&cursor=${cursor}`,
      400,
      'cursor was made with other filters',
    )
    await expectError(`${path}?limit=1&min_relevance=2&cursor=${cursor}`, 400, 'cursor was made with other filters')
    await expectError(`${path}?limit=1&min_relevance=0&cursor=${cursor}`, 400, 'cursor was made with other filters')
    expect((await call(`${path}?limit=10&cursor=${cursor}`)).body.data.papers).toHaveLength(2)
  })

  test('a cursor from the entity list is refused', async () => {
    const cursor = await nextCursor('/api/v1/entities?limit=1')
    await expectError(`${path}?cursor=${cursor}`, 400, 'cursor belongs to another endpoint')
  })

  test('bad parameters are a 400 even for an unknown entity', async () => {
    await expectError('/api/v1/entities/intervention/CHEBI:0?limit=0', 400, 'limit must be an integer')
  })
})

describe('GET /api/v1/entities/{type}/{key} answers 404 not_found for an unknown entity', () => {
  test.each([
    ['an unknown key', '/intervention/CHEBI%3A0', 'no entity of type "intervention" with key "CHEBI:0"'],
    ['a known key under another type', '/gene/CHEBI:9168', 'no entity of type "gene" with key "CHEBI:9168"'],
    ['an unknown type', '/drug/CHEBI:9168', 'no entity of type "drug"'],
    ['a key encoded twice', '/intervention/CHEBI%253A9168', 'with key "CHEBI%3A9168"'],
    ['a quote in the key', "/intervention/x'%20or%201=1", `with key "x' or 1=1"`],
    ['a NUL in the key', '/gene/a%00b', 'the path holds a NUL character'],
    ['a NUL in the type', '/%00/x', 'the path holds a NUL character'],
  ])('%s', async (_name, suffix, message) => {
    await expectError(`/api/v1/entities${suffix}`, 404, message)
  })

  test('a path with a missing or extra segment is an unknown path', async () => {
    await expectError('/api/v1/entities/intervention', 404, 'no such path')
    await expectError('/api/v1/entities/intervention/CHEBI:9168/papers', 404, 'no such path')
  })
})
