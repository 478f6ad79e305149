import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { freshDatabase, type TestDatabase } from '../support/database'
import { req, testApp } from '../support/app'
import { bearer, createTestKey } from '../support/fixtures'
import { PostgresRateLimitStore } from '../../src/rate-limit/postgres-store'

let database: TestDatabase
let app: Awaited<ReturnType<typeof testApp>>
let clock = new Date('2026-11-21T10:00:30Z')

beforeAll(async () => {
  database = await freshDatabase()
  app = await testApp(database, { now: () => clock })
})
afterAll(async () => {
  await database.close()
})

describe('rate limits over HTTP', () => {
  test('a member account gets 60 a minute across its keys, then 429 with Retry-After until the next minute', async () => {
    const first = await createTestKey(database.db, { tier: 'member' })
    const second = await createTestKey(database.db, { tier: 'member', accountId: first.accountId })
    for (let i = 0; i < 60; i++) {
      const response = await app.handle(req('/api/v1/topics', bearer(i % 2 ? second.key : first.key)))
      expect(response.status).toBe(200)
      expect(response.headers.get('x-ratelimit-minute-remaining')).toBe(String(59 - i))
    }
    expect((await app.handle(req('/api/v1/topics', bearer(second.key)))).status).toBe(429)
    const refused = await app.handle(req('/api/v1/topics', bearer(first.key)))
    expect(refused.status).toBe(429)
    expect(await refused.json()).toEqual({
      error: { status: 429, code: 'rate_limited', message: 'rate limit reached; retry after 30 seconds' },
    })
    expect(refused.headers.get('retry-after')).toBe('30')
    expect(refused.headers.get('x-ratelimit-used')).toBe('60') // the refused request used nothing
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('940')
    expect(refused.headers.get('x-ratelimit-minute-remaining')).toBe('0')
    expect(refused.headers.get('x-ratelimit-minute-reset')).toBe(String(Date.parse('2026-11-21T10:01:00Z') / 1000))
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-11-22T00:00:00Z') / 1000))
    expect(refused.headers.get('cache-control')).toBe('no-store')

    clock = new Date('2026-11-21T10:01:00Z')
    const nextMinute = await app.handle(req('/api/v1/topics', bearer(second.key)))
    expect(nextMinute.status).toBe(200)
    expect(nextMinute.headers.get('x-ratelimit-used')).toBe('61')
  })

  test('a pro key has its own 600 a minute, whatever other keys do', async () => {
    const pro = await createTestKey(database.db, { tier: 'pro' })
    const response = await app.handle(req('/api/v1/topics', bearer(pro.key)))
    expect(response.headers.get('x-ratelimit-limit')).toBe('50000')
    expect(response.headers.get('x-ratelimit-minute-limit')).toBe('600')
    expect(response.headers.get('x-ratelimit-used')).toBe('1')
  })

  test('concurrent requests never let more than the allowance through', async () => {
    clock = new Date('2026-11-21T11:00:00Z')
    const member = await createTestKey(database.db, { tier: 'member' })
    const statuses = await Promise.all(
      Array.from({ length: 100 }, () => app.handle(req('/api/v1/topics', bearer(member.key))).then((r) => r.status)),
    )
    expect(statuses.filter((s) => s === 200)).toHaveLength(60)
    expect(statuses.filter((s) => s === 429)).toHaveLength(40)
  })

  test('with the PostgreSQL store, two instances share exact counts under concurrency', async () => {
    clock = new Date('2026-11-21T12:00:00Z')
    const [one, two] = await Promise.all(
      [1, 2].map(async () =>
        testApp(database, { now: () => clock, limits: await PostgresRateLimitStore.open(database) }),
      ),
    )
    const member = await createTestKey(database.db, { tier: 'member' })
    const statuses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        (i % 2 ? one : two).handle(req('/api/v1/topics', bearer(member.key))).then((r) => r.status),
      ),
    )
    expect(statuses.filter((s) => s === 200)).toHaveLength(60)
    expect(statuses.filter((s) => s === 429)).toHaveLength(40)
    const last = await one.handle(req('/api/v1/topics', bearer(member.key)))
    expect(last.headers.get('x-ratelimit-used')).toBe('60')
  })
})
