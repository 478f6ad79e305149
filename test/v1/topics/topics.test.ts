import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CorpusSnapshot } from '../../../src/modules/v1/stats/snapshot'
import { TOPICS } from '../../../src/taxonomy'
import { freshDatabase, type TestDatabase } from '../../support/database'
import { req, testApp } from '../../support/app'
import { bearer, createTestKey, insertPapers, paperRow } from '../../support/fixtures'

let database: TestDatabase
let app: Awaited<ReturnType<typeof testApp>>
let key: string
let clock = new Date('2026-10-10T12:00:00Z') // today is 2026-10-10 (UTC); the last 7 days start 2026-10-04
const get = async (path: string) => {
  const response = await app.handle(req(path, bearer(key)))
  return { status: response.status, body: await response.json(), headers: response.headers }
}
const counts = (body: { data: { slug: string; papers_7d: number; papers_total: number }[] }) =>
  Object.fromEntries(body.data.filter((t) => t.papers_total > 0).map((t) => [t.slug, [t.papers_7d, t.papers_total]]))

beforeAll(async () => {
  database = await freshDatabase()
  app = await testApp(database, { snapshot: new CorpusSnapshot(database.db, () => clock) })
  key = (await createTestKey(database.db, { tier: 'pro' })).key
  await insertPapers(database.db, [
    paperRow({ id: 'MED-1', topic: 'senescence', relevance: 2, indexedDate: '2026-10-10' }), // today, on the aging boundary
    paperRow({ id: 'MED-2', topic: 'senescence', relevance: 3, indexedDate: '2026-10-04' }), // 6 days old: still in the 7 days
    paperRow({ id: 'MED-3', topic: 'senescence', relevance: 2.5, indexedDate: '2026-10-03' }), // 7 days old: total only
    paperRow({ id: 'MED-4', topic: 'senescence', relevance: 1.9, indexedDate: '2026-10-10' }), // tangential: never counted
    paperRow({ id: 'MED-5', topic: 'senescence', relevance: null, judgedAt: null, indexedDate: '2026-10-10' }), // unjudged
    paperRow({ id: 'MED-6', topic: 'glp-1', relevance: 2, indexedDate: '2026-09-01' }),
    paperRow({ id: 'PPR-7', source: 'PPR', preprint: true, topic: 'other', relevance: 2.9, indexedDate: '2026-10-09' }),
    paperRow({ id: 'MED-8', topic: null, relevance: 2.9, indexedDate: '2026-10-09' }), // aging but filed under no topic
  ])
})
afterAll(async () => {
  await database.close()
})

describe('GET /api/v1/topics', () => {
  test('lists all 11 topics in a fixed order, with every field of Topic', async () => {
    const { status, body, headers } = await get('/api/v1/topics')
    expect(status).toBe(200)
    expect(Object.keys(body)).toEqual(['data']) // no pagination
    expect(body.data.map((t: { slug: string }) => t.slug)).toEqual([...TOPICS])
    expect(body.data[0]).toEqual({
      slug: 'senescence',
      name: 'Cellular senescence',
      description: 'Senescent cells, the SASP, senolytics and senomorphics.',
      papers_7d: 2,
      papers_total: 3,
      site_url: 'https://geroscope.test/topics/senescence',
      feed_url: 'https://geroscope.test/topics/senescence/feed.xml',
    })
    expect(body.data.find((t: { slug: string }) => t.slug === 'glp-1')).toMatchObject({
      name: 'GLP-1 drugs',
      feed_url: 'https://geroscope.test/topics/glp-1/feed.xml',
    })
    expect(headers.get('cache-control')).toBe('private, max-age=60')
  })

  test('counts papers with relevance 2 or more: in the last 7 UTC days (today and 6 before) and in all', async () => {
    const { body } = await get('/api/v1/topics')
    expect(counts(body)).toEqual({ senescence: [2, 3], 'glp-1': [0, 1], other: [1, 1] })
    for (const topic of body.data) {
      expect(Number.isInteger(topic.papers_7d) && Number.isInteger(topic.papers_total)).toBe(true)
      if (!['senescence', 'glp-1', 'other'].includes(topic.slug))
        expect([topic.papers_7d, topic.papers_total]).toEqual([0, 0])
    }
  })

  test('the 7 days are UTC days of the injected clock', async () => {
    clock = new Date('2026-10-10T23:59:00.000Z') // same UTC day, hours later: recomputed, same window
    expect(counts((await get('/api/v1/topics')).body).senescence).toEqual([2, 3])
    clock = new Date('2026-10-11T00:00:00.000Z') // a minute later, a new UTC day: 2026-10-04 is now 7 days old
    expect(counts((await get('/api/v1/topics')).body)).toEqual({ senescence: [1, 3], 'glp-1': [0, 1], other: [1, 1] })
    clock = new Date('2026-10-17T00:00:00.000Z')
    expect(counts((await get('/api/v1/topics')).body)).toEqual({ senescence: [0, 3], 'glp-1': [0, 1], other: [0, 1] })
  })

  test('takes no parameters', async () => {
    const response = await app.handle(req('/api/v1/topics?limit=5', bearer(key)))
    expect(response.status).toBe(400)
    expect((await response.json()).error).toEqual({
      status: 400,
      code: 'invalid_parameter',
      message: 'unknown parameter "limit"; this endpoint takes fields',
    })
  })

  test('needs a key', async () => {
    const response = await app.handle(req('/api/v1/topics'))
    expect(response.status).toBe(401)
    expect((await response.json()).error.code).toBe('missing_key')
  })
})
