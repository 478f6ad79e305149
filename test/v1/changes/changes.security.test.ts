import { beforeAll, describe, expect, test } from 'bun:test'
import { count } from 'drizzle-orm'
import { papers } from '../../../src/db/schema'
import { req, useTestApp } from '../../support/app'
import { bearer, createTestKey, insertClaim, insertPapers, paperRow } from '../../support/fixtures'

const api = useTestApp()

beforeAll(async () => {
  await insertPapers(api.database.db, [
    paperRow({ id: 'MED-1', abstractLicense: 'cc by-nc', abstract: 'A withheld abstract.' }),
    paperRow({ id: 'MED-2', abstractLicense: null, abstract: 'All rights reserved.' }),
    paperRow({ id: 'MED-3', abstractLicense: 'cc by', abstract: 'An open abstract.' }),
  ])
  await insertClaim(api.database.db, { paperId: 'MED-1', evidence: 'A withheld quote.' })
  await insertClaim(api.database.db, { paperId: 'MED-3', evidence: 'An open quote.' })
})

const get = async (path: string, init = bearer(api.key)) => {
  const response = await api.app.handle(req(path, init))
  return { status: response.status, body: await response.json(), headers: response.headers }
}

const FEEDS = [
  '/api/v1/papers?updated_since=2000-01-01',
  '/api/v1/stories?updated_since=2000-01-01',
  '/api/v1/claims?updated_since=2000-01-01',
  '/api/v1/changes',
]

describe('the change feed is behind the same keys as the lists', () => {
  test.each(FEEDS)('%s without a key is 401 missing_key, with a bad one 401 invalid_key', async (path) => {
    expect((await get(path, { headers: {} } as never)).body.error.code).toBe('missing_key')
    expect((await get(path, bearer('grk_AAAAAAAA_' + 'a'.repeat(32)))).body.error.code).toBe('invalid_key')
  })

  test('a revoked key and a lapsed member are refused as on every endpoint', async () => {
    const revoked = await createTestKey(api.database.db, { revoked: true })
    const lapsed = await createTestKey(api.database.db, { tier: 'member', membership: 'lapsed' })
    expect((await get(FEEDS[3]!, bearer(revoked.key))).body.error.code).toBe('revoked_key')
    expect((await get(FEEDS[0]!, bearer(lapsed.key))).body.error.code).toBe('plan_required')
  })
})

describe('the feed leaks nothing the lists withhold', () => {
  test('abstracts and evidence follow the licence, as in the lists', async () => {
    const { body } = await get('/api/v1/papers?updated_since=2000-01-01&min_relevance=0&limit=100')
    const abstracts = Object.fromEntries(
      body.data.map((p: { id: string; abstract: string | null }) => [p.id, p.abstract]),
    )
    expect(abstracts).toEqual({ 'MED-1': null, 'MED-2': null, 'MED-3': 'An open abstract.' })
    const claims = (await get('/api/v1/claims?updated_since=2000-01-01')).body.data
    expect(claims.map((c: { paper_id: string; evidence: string | null }) => [c.paper_id, c.evidence])).toEqual([
      ['MED-1', null],
      ['MED-3', 'An open quote.'],
    ])
    expect(JSON.stringify(body) + JSON.stringify(claims)).not.toMatch(/withheld|All rights reserved/)
  })

  test('a tombstone says only which item went and when', async () => {
    const { body } = await get('/api/v1/papers?updated_since=2000-01-01&topic=glp-1&limit=1')
    expect(Object.keys(body.data[0]).sort()).toEqual(['changed_at', 'deleted', 'id', 'reason'])
  })
})

describe('hostile input is refused as input, never run', () => {
  test.each([
    "2026-01-01T00:00:00Z'; delete from papers; --",
    '2026-01-01T00:00:00Z) or (1=1',
    '2026-01-01T00:00:00Z%00',
    `2026-01-01T00:00:00Z${'0'.repeat(5000)}`,
  ])('updated_since=%s', async (value) => {
    const { status, body } = await get(`/api/v1/papers?updated_since=${encodeURIComponent(value)}`)
    expect(status).toBe(400)
    expect(body.error.code).toBe('invalid_parameter')
    const [{ n }] = await api.database.db.select({ n: count() }).from(papers)
    expect(n).toBe(3)
  })

  test('a cursor signed with another secret is refused', async () => {
    const { createHmac } = await import('node:crypto')
    const body = Buffer.from(JSON.stringify({ e: 'changes', f: 'x', k: ['0', '0', Date.now()] })).toString('base64url')
    const forged = `${body}.${createHmac('sha256', 'not-the-secret').update(body).digest('base64url').slice(0, 22)}`
    const { status, body: answer } = await get(`/api/v1/changes?cursor=${forged}`)
    expect(status).toBe(400)
    expect(answer.error.message).toBe('cursor is not a cursor this API issued (bad signature)')
  })
})
