/** Invalid brief requests are 400s that name the field; empty selections and unknown briefs are 404s; nothing is stored. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { req } from '../support/app'
import { adminApp, call, type AdminApp } from '../intelligence/support'
import { WEEK, seedWeek } from './fixtures'

let database: TestDatabase
let app: AdminApp

beforeAll(async () => {
  database = await freshDatabase()
  await seedWeek(database.db)
  app = adminApp(database, { now: () => new Date('2026-11-16T18:00:00Z') })
})
afterAll(() => database.close())

const stored = async () =>
  Number((await database.rows<{ n: number }>(sql`select count(*)::int as n from briefs`))[0]!.n)

describe(`invalid bodies on ${testDriver}`, () => {
  test.each([
    [
      '/api/generate-brief',
      { since: '2026-11-10', days: 7 },
      'unknown field "days"; this endpoint takes since, until, title, topics',
    ],
    ['/api/generate-brief', { entities: ['intervention:CHEBI:9168'] }, 'unknown field "entities"'],
    ['/api/generate-brief', { since: '2026-11-31' }, 'since must be a date as YYYY-MM-DD (got "2026-11-31")'],
    ['/api/generate-brief', { until: 20261116 }, 'until must be a date as YYYY-MM-DD (got 20261116)'],
    [
      '/api/generate-brief',
      { since: '2026-11-16', until: '2026-11-10' },
      'since (2026-11-16) must not be after until (2026-11-10)',
    ],
    [
      '/api/generate-brief',
      { since: '2024-01-01', until: '2026-11-10' },
      'the window from since to until may span at most 366 days',
    ],
    ['/api/generate-brief', { topics: 'senescence' }, 'topics must be an array (got string)'],
    ['/api/generate-brief', { topics: ['senescence', 'aging'] }, 'topics[1] must be one of senescence, '],
    ['/api/generate-brief', { topics: [''] }, 'topics[0] must be one of senescence, '],
    ['/api/generate-brief', { title: '' }, 'title must not be empty'],
    ['/api/generate-brief', { title: 'x'.repeat(201) }, 'title must be at most 200 characters long (got 201)'],
    ['/api/generate-brief', { title: 'a\u0000b' }, 'title must not contain the NUL character'],
    ['/api/generate-brief/tag-based', {}, 'give at least one of topics, entities, source_tags'],
    ['/api/generate-brief/tag-based', { topics: [] }, 'give at least one of topics, entities, source_tags'],
    ['/api/generate-brief/tag-based', { entities: ['rapamycin'] }, 'entities[0] must be type:key'],
    [
      '/api/generate-brief/tag-based',
      { entities: Array.from({ length: 21 }, (_, i) => `gene:G${i}`) },
      'entities must have at most 20 items (got 21)',
    ],
    ['/api/generate-brief/tag-based', { source_tags: ['ok', 7] }, 'source_tags[1] must be a string (got number)'],
    [
      '/api/generate-brief/tag-based',
      { source_tags: ['x'.repeat(101)] },
      'source_tags[0] must be at most 100 characters',
    ],
    ['/api/generate-brief/tag-based', { source_tags: [' '] }, 'source_tags[0] must not be empty'],
    [
      '/api/generate-brief',
      { days: 7, when: 'now' },
      'unknown fields "days", "when"; this endpoint takes since, until, title, topics',
    ],
    [
      '/api/generate-brief/tag-based',
      { tags: ['preprint'] },
      'unknown field "tags"; this endpoint takes since, until, title, topics, entities, source_tags',
    ],
    ['/api/generate-brief', [WEEK], 'the body must be a JSON object (got array)'],
    ['/api/generate-brief', 'last week', 'the body must be a JSON object (got string)'],
  ])('%s %j', async (path, json, message) => {
    const before = await stored()
    const { status, body, headers } = await call(app, path, { json })
    expect(status).toBe(400)
    expect(body.error).toMatchObject({ status: 400, code: 'invalid_parameter' })
    expect(body.error.message).toContain(message)
    expect(headers.get('cache-control')).toBe('no-store')
    expect(await stored()).toBe(before)
  })

  test('a body that is not JSON is 400', async () => {
    const response = await app.handle(
      req('/api/generate-brief', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"since":',
      }),
    )
    expect(response.status).toBe(400)
    expect((await response.json()).error.code).toBe('invalid_parameter')
  })

  test('a body in another format than JSON is 400', async () => {
    const response = await app.handle(
      req('/api/generate-brief', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'since=2026-11-10',
      }),
    )
    expect(response.status).toBe(400)
    expect((await response.json()).error.message).toBe(
      'the body must be JSON, sent with Content-Type: application/json (got application/x-www-form-urlencoded)',
    )
  })

  test('no body at all is an empty one: every field takes its default', async () => {
    const response = await app.handle(req('/api/generate-brief', { method: 'POST' }))
    expect(response.status).toBe(201)
    expect((await response.json()).data.window).toEqual(WEEK)
  })

  test('a query parameter on a POST is refused by name', async () => {
    const { status, body } = await call(app, '/api/generate-brief?since=2026-11-10', { json: {} })
    expect(status).toBe(400)
    expect(body.error.message).toContain('unknown parameter "since"')
  })
})

describe(`nothing to brief on ${testDriver}`, () => {
  test.each([
    [
      '/api/generate-brief',
      { since: '2026-01-01', until: '2026-01-07' },
      'no analysed papers or articles in 2026-01-01 to 2026-01-07',
    ],
    ['/api/generate-brief', { ...WEEK, topics: ['reprogramming'] }, 'on reprogramming'],
    ['/api/generate-brief/tag-based', { ...WEEK, source_tags: ['podcast'] }, 'carry these tags'],
  ])('%s %j is 404 and stores nothing', async (path, json, message) => {
    const before = await stored()
    const { status, body } = await call(app, path, { json })
    expect(status).toBe(404)
    expect(body.error).toMatchObject({ code: 'not_found' })
    expect(body.error.message).toContain(message)
    expect(await stored()).toBe(before)
  })
})

describe(`reading briefs on ${testDriver}`, () => {
  test.each([
    ['/api/briefs/999999', 404, 'no brief 999999'],
    ['/api/briefs/abc', 400, 'id must be a positive integer (got "abc")'],
    ['/api/briefs/0', 400, 'id must be a positive integer'],
    ['/api/briefs/99999999999', 400, 'id must be a positive integer'],
    ['/api/briefs/1?full=true', 400, 'unknown parameter "full"'],
    ['/api/briefs?kind=weekly', 400, 'kind has unknown value "weekly"; allowed: comprehensive, tag_based'],
    ['/api/briefs?cursor=abc', 400, 'cursor is not a cursor this API issued'],
    ['/api/briefs?limit=500', 400, 'limit must be an integer from 1 to 100'],
  ])('%s', async (path, status, message) => {
    const response = await call(app, path)
    expect(response.status).toBe(status)
    expect(response.body.error.message).toContain(message)
  })
})
