import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { encodeCursor } from '../../../src/http/cursor'
import { TEST_SECRET, req } from '../../support/app'
import { expectInvalidParameter } from '../../support/expect'
import { freshDatabase, type TestDatabase } from '../../support/database'
import { bearer, createTestKey, insertClaim, insertPapers, paperRow } from '../../support/fixtures'
import { insertCountedEntity, knowledgeApp } from '../../support/fixtures-knowledge'

let database: TestDatabase
let app: Awaited<ReturnType<typeof knowledgeApp>>
let key: string

beforeAll(async () => {
  database = await freshDatabase()
  app = await knowledgeApp(database)
  key = (await createTestKey(database.db, { tier: 'pro' })).key
  await insertPapers(database.db, [paperRow({ id: 'MED-1' }), paperRow({ id: 'MED-2' })])
  await insertCountedEntity(database.db, 'intervention', 'CHEBI:9168', 'rapamycin', 2)
  await insertCountedEntity(database.db, 'gene', 'HGNC:3942', 'MTOR', 1)
  await insertClaim(database.db, { paperId: 'MED-1', createdAt: new Date('2026-10-03T00:00:00Z') })
  await insertClaim(database.db, {
    paperId: 'MED-1',
    relation: 'decreases',
    createdAt: new Date('2026-10-02T00:00:00Z'),
  })
  await insertClaim(database.db, { paperId: 'MED-2', createdAt: new Date('2026-10-01T00:00:00Z') })
})
afterAll(async () => {
  await database.close()
})

async function call(path: string) {
  const response = await app.handle(req(path, bearer(key)))
  return { response, body: await response.json() }
}

async function expect400(path: string, message: string) {
  await expectInvalidParameter(await app.handle(req(path, bearer(key))), message)
}

const nextCursor = async (path: string): Promise<string> => (await call(path)).body.pagination.next_cursor

describe('GET /api/v1/claims refuses bad input with 400 invalid_parameter naming the parameter', () => {
  test.each([
    [
      'an unknown parameter',
      '?entity=rapamycin',
      'unknown parameter "entity"; this endpoint takes subject, object, relation, organism, paper_id, cursor, limit',
    ],
    ['a parameter in the wrong case', '?Subject=rapamycin', 'unknown parameter "Subject"'],
    ['a repeated parameter', '?subject=a&subject=b', 'subject is given more than once'],
    ['an empty subject', '?subject=', 'subject must not be empty'],
    ['an empty object', '?object=', 'object must not be empty'],
    ['an empty relation', '?relation=', 'relation must not be empty'],
    ['an empty organism', '?organism=', 'organism must not be empty'],
    ['a subject holding NUL', '?subject=%00', 'subject must not contain the NUL character (%00)'],
    ['an organism holding NUL', '?organism=mice%00', 'organism must not contain the NUL character'],
    [
      'a subject over 200 characters',
      `?subject=${'a'.repeat(201)}`,
      'subject must be at most 200 characters (got 201)',
    ],
    ['an object over 200 characters', `?object=${'a'.repeat(201)}`, 'object must be at most 200 characters'],
    ['a relation over 200 characters', `?relation=${'a'.repeat(201)}`, 'relation must be at most 200 characters'],
    ['an organism over 200 characters', `?organism=${'a'.repeat(201)}`, 'organism must be at most 200 characters'],
    [
      'a paper id from another source',
      '?paper_id=PMC-1',
      'paper_id must be a paper id like MED-39172536 or PPR-841231 (got "PMC-1")',
    ],
    ['a paper id without its number', '?paper_id=MED-', 'paper_id must be a paper id'],
    ['a bare number', '?paper_id=39172536', 'paper_id must be a paper id'],
    ['a paper id with letters in its number', '?paper_id=MED-12a', 'paper_id must be a paper id'],
    ['an empty paper id', '?paper_id=', 'paper_id must be a paper id'],
    ['an injected paper id', "?paper_id=MED-1'%20or%201=1", 'paper_id must be a paper id'],
    ['limit 0', '?limit=0', 'limit must be an integer from 1 to 100'],
    ['limit 101', '?limit=101', 'limit must be an integer from 1 to 100'],
    ['a negative limit', '?limit=-1', 'limit must be an integer'],
    ['a garbage cursor', '?cursor=abc', 'cursor is not a cursor this API issued'],
    ['a cursor with a third part', '?cursor=a.b.c', 'cursor is not a cursor this API issued'],
  ])('%s', async (_name, query, message) => {
    await expect400(`/api/v1/claims${query}`, message)
  })

  test('a forged cursor is refused', async () => {
    const forged = encodeCursor('another-secret-of-sufficient-length!!', 'claims', {}, [
      '2026-10-02T00:00:00.000000Z',
      2,
    ])
    await expect400(`/api/v1/claims?cursor=${forged}`, 'bad signature')
  })

  test('a cursor reused with other filters is refused, but another limit is fine', async () => {
    const cursor = await nextCursor('/api/v1/claims?limit=1')
    await expect400(`/api/v1/claims?limit=1&relation=decreases&cursor=${cursor}`, 'cursor was made with other filters')
    await expect400(`/api/v1/claims?limit=1&subject=rapamycin&cursor=${cursor}`, 'cursor was made with other filters')
    await expect400(`/api/v1/claims?limit=1&paper_id=MED-1&cursor=${cursor}`, 'cursor was made with other filters')
    const bySubject = await nextCursor('/api/v1/claims?limit=1&subject=rapamycin')
    await expect400(`/api/v1/claims?limit=1&object=rapamycin&cursor=${bySubject}`, 'cursor was made with other filters')
    await expect400(
      `/api/v1/claims?limit=1&subject=rapamycin&organism=mus&cursor=${bySubject}`,
      'cursor was made with other filters',
    )
    const { response, body } = await call(`/api/v1/claims?limit=5&cursor=${cursor}`)
    expect(response.status).toBe(200)
    expect(body.data.map((c: { created_at: string }) => c.created_at)).toEqual([
      '2026-10-02T00:00:00.000Z',
      '2026-10-01T00:00:00.000Z',
    ])
  })

  test('a cursor from another endpoint is refused', async () => {
    const fromEntities = await nextCursor('/api/v1/entities?limit=1')
    await expect400(`/api/v1/claims?cursor=${fromEntities}`, 'cursor belongs to another endpoint')
    const fromPapers = encodeCursor(TEST_SECRET, 'papers', {}, ['2026-10-01', 'MED-1'])
    await expect400(`/api/v1/claims?cursor=${fromPapers}`, 'cursor belongs to another endpoint')
  })
})
