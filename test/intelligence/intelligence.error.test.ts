/** Bad requests to /api/intelligence get the contract's envelope with a message that names what is wrong. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { computeIntelligence } from '../../src/pipeline/intelligence/refresh'
import { withJobLock } from '../../src/jobs/job-lock'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { adminApp, call, type AdminApp } from './support'
import { NOW, seedKnowledge } from './fixtures'

let database: TestDatabase
let app: AdminApp

beforeAll(async () => {
  database = await freshDatabase()
  await seedKnowledge(database.db)
  await computeIntelligence(database, { now: NOW })
  app = adminApp(database)
})
afterAll(() => database.close())

const C = '/api/intelligence/contradictions'
const G = '/api/intelligence/gaps'

describe(`invalid parameters on ${testDriver}`, () => {
  test.each([
    [
      `${C}?foo=1`,
      'unknown parameter "foo"; this endpoint takes topic, entity, organism, min_score, since, cursor, limit',
    ],
    [`${C}?topic=aging`, 'topic has unknown value "aging"; allowed: senescence'],
    [`${C}?entity=rapamycin`, 'entity must be type:key with a type among intervention'],
    [`${C}?entity=planet:mars`, 'entity must be type:key'],
    [`${C}?entity=gene:`, 'entity must be type:key'],
    [`${C}?organism=`, 'organism must be an organism name of 1 to 200 characters'],
    [`${C}?min_score=2`, 'min_score must be a number from 0 to 1 (got "2")'],
    [`${C}?min_score=high`, 'min_score must be a number from 0 to 1'],
    [`${C}?since=2026-02-30`, 'since must be a date (YYYY-MM-DD) or an ISO 8601 timestamp (got "2026-02-30")'],
    [`${C}?limit=0`, 'limit must be an integer from 1 to 100 (got "0")'],
    [`${C}?limit=101`, 'limit must be an integer from 1 to 100'],
    [`${C}?limit=1&limit=2`, 'limit is given more than once'],
    [`${C}?cursor=nonsense`, 'cursor is not a cursor this API issued'],
    [`${C}/c0000000000000000?limit=1`, 'unknown parameter "limit"; this endpoint takes none'],
    [
      `${G}?kind=gap`,
      'kind has unknown value "gap"; allowed: no_human_trial, single_paper, single_organism, declining_attention, disputed_finding',
    ],
    [`${G}?since=2026-01-01`, 'unknown parameter "since"'],
    [`${G}?entity=mesh`, 'entity must be type:key'],
  ])('%s', async (path, message) => {
    const { status, body, headers } = await call(app, path)
    expect(status).toBe(400)
    expect(body.error).toMatchObject({ status: 400, code: 'invalid_parameter' })
    expect(body.error.message).toContain(message)
    expect(headers.get('cache-control')).toBe('no-store')
  })
})

describe(`unknown ids on ${testDriver}`, () => {
  test.each([`${C}/c0000000000000000`, `${C}/not-an-id`, `${G}/g0000000000000000`, `${G}/%27%20or%201=1`])(
    '%s is 404',
    async (path) => {
      const { status, body } = await call(app, path)
      expect(status).toBe(404)
      expect(body.error.code).toBe('not_found')
    },
  )
})

describe(`refresh on ${testDriver}`, () => {
  test.each([
    ['{"now": true}', 'application/json', 'unknown field "now"; this endpoint takes no fields'],
    ['[1]', 'application/json', 'the body must be a JSON object (got array)'],
    ['{}', 'text/plain', 'the body must be JSON, sent with Content-Type: application/json (got text/plain)'],
  ])('a body %s (%s) is refused', async (body, type, message) => {
    const response = await call(app, '/api/intelligence/refresh', {
      method: 'POST',
      body,
      headers: { 'content-type': type },
    })
    expect(response.status).toBe(400)
    expect(response.body.error.message).toContain(message)
  })

  test('a run already in progress is 409 conflict, and nothing is recomputed twice', async () => {
    await withJobLock(database, 'intelligence', async () => {
      const { status, body } = await call(app, '/api/intelligence/refresh', { method: 'POST' })
      expect(status).toBe(409)
      expect(body.error).toMatchObject({ status: 409, code: 'conflict' })
    })
    expect((await call(app, '/api/intelligence/refresh', { method: 'POST' })).status).toBe(200)
  })

  test('before any snapshot exists, a read while another run computes the first one is 503 with Retry-After', async () => {
    const empty = await freshDatabase()
    try {
      await withJobLock(empty, 'intelligence', async () => {
        const { status, body, headers } = await call(adminApp(empty), C)
        expect(status).toBe(503)
        expect(body.error.code).toBe('unavailable')
        expect(headers.get('retry-after')).toBe('30')
      })
    } finally {
      await empty.close()
    }
  })
})
