import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { rateLimitCounters } from '../../src/db/schema'
import { ALLOWANCES, bucketFor } from '../../src/modules/v1/rate-limit/allowances'
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store'
import { PostgresRateLimitStore } from '../../src/rate-limit/postgres-store'
import { rateLimitHeaders, type Allowance, type RateLimitStore } from '../../src/rate-limit/store'
import { freshDatabase, type TestDatabase } from '../support/database'

const small: Allowance = { perMinute: 3, perDay: 5 }
const at = (iso: string) => new Date(iso)
const unix = (iso: string) => Date.parse(iso) / 1000
let buckets = 0
const newBucket = () => `account:${++buckets}`

async function takeN(store: RateLimitStore, bucket: string, allowance: Allowance, now: Date, n: number) {
  const out = []
  for (let i = 0; i < n; i++) out.push(await store.take(bucket, allowance, now))
  return out
}

describe('allowances', () => {
  test('member buckets are per account, pro buckets per key', () => {
    expect(ALLOWANCES.member).toEqual({ perMinute: 60, perDay: 1000 })
    expect(ALLOWANCES.pro).toEqual({ perMinute: 600, perDay: 50000 })
    expect(bucketFor({ tier: 'member', accountId: 12, keyId: 'Ab3dE6gH' })).toBe('account:12')
    expect(bucketFor({ tier: 'pro', accountId: 12, keyId: 'Ab3dE6gH' })).toBe('key:Ab3dE6gH')
  })
})

const stores: [string, (db: TestDatabase) => Promise<RateLimitStore>][] = [
  ['memory store', (db) => MemoryRateLimitStore.open(db, at('2030-01-15T10:00:00Z'))],
  ['postgres store', (db) => PostgresRateLimitStore.open(db)],
]

describe.each(stores)('%s', (_name, openStore) => {
  let database: TestDatabase
  let store: RateLimitStore
  beforeAll(async () => {
    database = await freshDatabase()
  })
  afterEach(async () => {
    await store?.close()
  })
  afterAll(async () => {
    await database.close()
  })
  const open = async () => (store = await openStore(database))

  test('an allowance without perDay counts minutes only and keeps no daily counter (the admin limits)', async () => {
    await open()
    const bucket = `admin:address:${newBucket()}`
    const decisions = await takeN(store, bucket, { perMinute: 2 }, at('2030-01-15T10:00:45Z'), 3)
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false])
    expect(decisions[2]).toMatchObject({ retryAfter: 15, dayLimit: Number.POSITIVE_INFINITY })
    expect((await store.take(bucket, { perMinute: 2 }, at('2030-01-15T10:01:00Z'))).allowed).toBe(true)
    if (store instanceof MemoryRateLimitStore) await store.flush()
    const days = await database.db
      .select()
      .from(rateLimitCounters)
      .where(and(eq(rateLimitCounters.bucket, bucket), eq(rateLimitCounters.window, 'day')))
    expect(days).toEqual([])
  })

  test('allows the minute allowance, then refuses until the next minute', async () => {
    await open()
    const bucket = newBucket()
    const allowance = { perMinute: 3, perDay: 100 }
    const first = await takeN(store, bucket, allowance, at('2030-01-15T10:00:20Z'), 3)
    expect(first.map((d) => d.allowed)).toEqual([true, true, true])
    const refused = await store.take(bucket, allowance, at('2030-01-15T10:00:20Z'))
    expect(refused).toMatchObject({ allowed: false, retryAfter: 40, minuteRemaining: 0, dayUsed: 3 })
    const late = await store.take(bucket, allowance, at('2030-01-15T10:00:59.600Z'))
    expect(late).toMatchObject({ allowed: false, retryAfter: 1 }) // rounded up, never 0
    const next = await store.take(bucket, allowance, at('2030-01-15T10:01:00Z'))
    expect(next).toMatchObject({ allowed: true, minuteRemaining: 2, dayUsed: 4, retryAfter: null })
  })

  test('the daily allowance runs out across minutes, and Retry-After runs to midnight', async () => {
    await open()
    const bucket = newBucket()
    await takeN(store, bucket, small, at('2030-01-15T10:00:00Z'), 3)
    const [, fifth] = await takeN(store, bucket, small, at('2030-01-15T10:01:00Z'), 2)
    expect(fifth).toMatchObject({ allowed: true, dayUsed: 5, dayRemaining: 0, minuteRemaining: 1 })
    const refused = await store.take(bucket, small, at('2030-01-15T10:01:00Z'))
    expect(refused).toMatchObject({ allowed: false, dayUsed: 5, dayRemaining: 0, retryAfter: 14 * 3600 - 60 })
    const later = await store.take(bucket, small, at('2030-01-15T23:59:59.500Z'))
    expect(later).toMatchObject({ allowed: false, retryAfter: 1 })
  })

  test('the day resets at UTC midnight', async () => {
    await open()
    const bucket = newBucket()
    await takeN(store, bucket, small, at('2030-01-15T23:58:00Z'), 3)
    await takeN(store, bucket, small, at('2030-01-15T23:59:00Z'), 2)
    expect((await store.take(bucket, small, at('2030-01-15T23:59:59Z'))).allowed).toBe(false)
    const midnight = await store.take(bucket, small, at('2030-01-16T00:00:00Z'))
    expect(midnight).toMatchObject({
      allowed: true,
      dayUsed: 1,
      dayRemaining: 4,
      dayReset: unix('2030-01-17T00:00:00Z'),
    })
  })

  test('refused requests use no allowance', async () => {
    await open()
    const bucket = newBucket()
    const allowance = { perMinute: 2, perDay: 5 }
    const first = await takeN(store, bucket, allowance, at('2030-01-15T10:00:00Z'), 12)
    expect(first.filter((d) => d.allowed)).toHaveLength(2)
    expect(first.at(-1)).toMatchObject({ dayUsed: 2, dayRemaining: 3 })
    const second = await takeN(store, bucket, allowance, at('2030-01-15T10:01:00Z'), 5)
    expect(second.map((d) => d.allowed)).toEqual([true, true, false, false, false])
    const third = await takeN(store, bucket, allowance, at('2030-01-15T10:02:00Z'), 3)
    expect(third.map((d) => [d.allowed, d.dayUsed])).toEqual([
      [true, 5],
      [false, 5],
      [false, 5],
    ])
  })

  test('a take of several units is all of them or none', async () => {
    await open()
    const bucket = newBucket()
    const allowance = { perMinute: 6, perDay: 9 }
    expect(await store.take(bucket, allowance, at('2030-01-15T10:00:00Z'), 4)).toMatchObject({
      allowed: true,
      dayUsed: 4,
      minuteRemaining: 2,
    })
    const refused = await store.take(bucket, allowance, at('2030-01-15T10:00:00Z'), 3) // 2 left in the minute
    expect(refused).toMatchObject({ allowed: false, dayUsed: 4, minuteRemaining: 2, retryAfter: 60 })
    expect(await store.take(bucket, allowance, at('2030-01-15T10:00:00Z'), 2)).toMatchObject({
      allowed: true,
      dayUsed: 6,
      minuteRemaining: 0,
    })
    const dayShort = await store.take(bucket, allowance, at('2030-01-15T10:01:00Z'), 4) // 3 left in the day: wait for midnight
    expect(dayShort).toMatchObject({ allowed: false, dayUsed: 6, dayRemaining: 3, retryAfter: 14 * 3600 - 60 })
    expect(await store.take(bucket, allowance, at('2030-01-15T10:01:00Z'), 3)).toMatchObject({
      allowed: true,
      dayUsed: 9,
      dayRemaining: 0,
    })
  })

  test('many takes of several units at once never grant more than the allowance', async () => {
    await open()
    const bucket = newBucket()
    const allowance = { perMinute: 60, perDay: 1000 }
    const now = at('2030-01-15T10:00:00Z')
    const decisions = await Promise.all(Array.from({ length: 30 }, () => store.take(bucket, allowance, now, 5)))
    expect(decisions.filter((d) => d.allowed)).toHaveLength(12)
    expect(await store.take(bucket, allowance, now)).toMatchObject({ allowed: false, dayUsed: 60 })
  })

  test('units given back are granted again, in the current windows only', async () => {
    await open()
    const bucket = newBucket()
    const allowance = { perMinute: 3, perDay: 5 }
    await takeN(store, bucket, allowance, at('2030-01-15T10:00:00Z'), 3)
    await store.giveBack(bucket, allowance, at('2030-01-15T10:00:30Z'), 2)
    expect(await store.take(bucket, allowance, at('2030-01-15T10:00:40Z'), 2)).toMatchObject({
      allowed: true,
      dayUsed: 3,
      minuteRemaining: 0,
    })
    // A minute that has ended keeps its count; the day gets the unit back. Never below zero.
    await store.giveBack(bucket, allowance, at('2030-01-15T10:01:00Z'), 1)
    expect(await store.take(bucket, allowance, at('2030-01-15T10:01:00Z'), 3)).toMatchObject({
      allowed: true,
      dayUsed: 5,
    })
    await store.giveBack(bucket, allowance, at('2030-01-15T10:01:10Z'), 50)
    expect(await store.take(bucket, allowance, at('2030-01-15T10:01:20Z'))).toMatchObject({
      allowed: true,
      dayUsed: 1,
      minuteRemaining: 2,
    })
  })

  test('headers carry exact values', async () => {
    await open()
    const bucket = newBucket()
    const now = at('2030-01-15T10:00:20.250Z')
    const [first, , third] = await takeN(store, bucket, small, now, 3)
    expect(rateLimitHeaders(first)).toEqual({
      'X-RateLimit-Limit': '5',
      'X-RateLimit-Remaining': '4',
      'X-RateLimit-Reset': String(unix('2030-01-16T00:00:00Z')),
      'X-RateLimit-Used': '1',
      'X-RateLimit-Minute-Limit': '3',
      'X-RateLimit-Minute-Remaining': '2',
      'X-RateLimit-Minute-Reset': String(unix('2030-01-15T10:01:00Z')),
    })
    expect(rateLimitHeaders(third)).toMatchObject({
      'X-RateLimit-Used': '3',
      'X-RateLimit-Remaining': '2',
      'X-RateLimit-Minute-Remaining': '0',
    })
    expect(rateLimitHeaders(third)['Retry-After']).toBeUndefined()
    expect(rateLimitHeaders(await store.take(bucket, small, now))).toEqual({
      'X-RateLimit-Limit': '5',
      'X-RateLimit-Remaining': '2',
      'X-RateLimit-Reset': String(unix('2030-01-16T00:00:00Z')),
      'X-RateLimit-Used': '3',
      'X-RateLimit-Minute-Limit': '3',
      'X-RateLimit-Minute-Remaining': '0',
      'X-RateLimit-Minute-Reset': String(unix('2030-01-15T10:01:00Z')),
      'Retry-After': '40', // 39.75 s rounded up
    })
  })

  test('buckets are independent', async () => {
    await open()
    const [a, b] = [newBucket(), newBucket()]
    const now = at('2030-01-15T10:00:00Z')
    await takeN(store, a, small, now, 3)
    expect((await store.take(a, small, now)).allowed).toBe(false)
    expect(await store.take(b, small, now)).toMatchObject({ allowed: true, dayUsed: 1, minuteRemaining: 2 })
  })

  test('50 parallel takes with a minute allowance of 10 let exactly 10 through', async () => {
    await open()
    const bucket = newBucket()
    const allowance = { perMinute: 10, perDay: 1000 }
    const now = at('2030-01-15T10:00:00Z')
    const decisions = await Promise.all(Array.from({ length: 50 }, () => store.take(bucket, allowance, now)))
    const allowed = decisions.filter((d) => d.allowed)
    expect(allowed).toHaveLength(10)
    expect(allowed.map((d) => d.dayUsed).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(decisions.filter((d) => !d.allowed).every((d) => d.retryAfter === 60)).toBe(true)
    expect(await store.take(bucket, allowance, at('2030-01-15T10:01:00Z'))).toMatchObject({
      allowed: true,
      dayUsed: 11,
    })
  })
})

const dayCount = async (database: TestDatabase, bucket: string, day: string) => {
  const rows = await database.db
    .select({ count: rateLimitCounters.count })
    .from(rateLimitCounters)
    .where(
      and(
        eq(rateLimitCounters.bucket, bucket),
        eq(rateLimitCounters.window, 'day'),
        eq(rateLimitCounters.windowStart, at(day)),
      ),
    )
  return rows[0]?.count ?? null
}

const minuteCount = async (database: TestDatabase, bucket: string, minute: string) => {
  const rows = await database.db
    .select({ count: rateLimitCounters.count })
    .from(rateLimitCounters)
    .where(
      and(
        eq(rateLimitCounters.bucket, bucket),
        eq(rateLimitCounters.window, 'minute'),
        eq(rateLimitCounters.windowStart, at(minute)),
      ),
    )
  return rows[0]?.count ?? null
}

describe('memory store persistence', () => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await freshDatabase()
  })
  afterAll(async () => {
    await database.close()
  })

  test("keeps today's day count across a restart, but not yesterday's", async () => {
    const bucket = newBucket()
    const first = await MemoryRateLimitStore.open(database, at('2030-01-15T10:00:00Z'))
    await takeN(first, bucket, small, at('2030-01-15T10:00:00Z'), 3)
    await first.close()
    expect(await dayCount(database, bucket, '2030-01-15T00:00:00Z')).toBe(3)
    const second = await MemoryRateLimitStore.open(database, at('2030-01-15T10:05:00Z'))
    const [fourth, fifth, sixth] = await takeN(second, bucket, small, at('2030-01-15T10:05:00Z'), 3)
    expect([fourth.dayUsed, fifth.dayUsed, sixth.allowed]).toEqual([4, 5, false])
    await second.close()
    const tomorrow = await MemoryRateLimitStore.open(database, at('2030-01-16T00:00:01Z'))
    expect(await tomorrow.take(bucket, small, at('2030-01-16T00:00:01Z'))).toMatchObject({ allowed: true, dayUsed: 1 })
    await tomorrow.close()
  })

  test('adds to a count in the database it did not load, and counts that as used', async () => {
    const bucket = newBucket()
    await database.db
      .insert(rateLimitCounters)
      .values({ bucket, window: 'day', windowStart: at('2030-01-15T00:00:00Z'), count: 40 })
    const store = await MemoryRateLimitStore.open(database, at('2030-01-14T23:00:00Z')) // opened yesterday: did not load it
    const taken = await takeN(store, bucket, { perMinute: 10, perDay: 42 }, at('2030-01-15T10:00:00Z'), 4)
    expect(taken.map((d) => d.allowed)).toEqual([true, true, false, false]) // 40 already used elsewhere
    expect(await dayCount(database, bucket, '2030-01-15T00:00:00Z')).toBeGreaterThanOrEqual(42) // and a reservation
    await store.close()
    expect(await dayCount(database, bucket, '2030-01-15T00:00:00Z')).toBe(42)
  })

  test('grants only what the database already holds, for the minute and the day', async () => {
    const bucket = newBucket()
    const store = await MemoryRateLimitStore.open(database, at('2030-01-15T10:00:00Z'))
    const allowance = { perMinute: 40, perDay: 100 }
    for (let i = 1; i <= 40; i++) {
      const decision = await store.take(bucket, allowance, at('2030-01-15T10:00:10Z'))
      expect(decision.allowed).toBe(true)
      expect(await dayCount(database, bucket, '2030-01-15T00:00:00Z')).toBeGreaterThanOrEqual(i)
      expect(await minuteCount(database, bucket, '2030-01-15T10:00:00Z')).toBeGreaterThanOrEqual(i)
    }
    // One write per block (a twentieth of the allowance), not one per request.
    expect(await minuteCount(database, bucket, '2030-01-15T10:00:00Z')).toBe(40)
    expect(await dayCount(database, bucket, '2030-01-15T00:00:00Z')).toBe(40)
    await store.close()
  })

  test('a restart within the minute keeps the minute count; a clean close gives back unused reservations', async () => {
    const bucket = newBucket()
    const allowance = { perMinute: 60, perDay: 1000 }
    const first = await MemoryRateLimitStore.open(database, at('2030-01-15T11:00:00Z'))
    await takeN(first, bucket, allowance, at('2030-01-15T11:00:05Z'), 7)
    expect(await minuteCount(database, bucket, '2030-01-15T11:00:00Z')).toBe(9) // reserved in blocks of 3
    expect(await dayCount(database, bucket, '2030-01-15T00:00:00Z')).toBe(50) // in blocks of 50
    await first.close()
    expect(await minuteCount(database, bucket, '2030-01-15T11:00:00Z')).toBe(7)
    expect(await dayCount(database, bucket, '2030-01-15T00:00:00Z')).toBe(7)
    const second = await MemoryRateLimitStore.open(database, at('2030-01-15T11:00:30Z'))
    const rest = await takeN(second, bucket, allowance, at('2030-01-15T11:00:30Z'), 54)
    expect(rest.filter((d) => d.allowed)).toHaveLength(53)
    expect(rest.at(-1)).toMatchObject({ allowed: false, minuteRemaining: 0, dayUsed: 60 })
    await second.close()
  })

  test('reservations asked for at once are written together, each bucket granted exactly its own', async () => {
    const store = await MemoryRateLimitStore.open(database, at('2030-04-02T09:00:00Z'))
    const allowance = { perMinute: 40, perDay: 100 } // blocks of 2 and 5
    const many = Array.from({ length: 300 }, () => newBucket())
    // A minute starts: every bucket in use needs its block at the same moment, three requests each.
    const decisions = await Promise.all(
      many.flatMap((bucket) => [0, 1, 2].map(() => store.take(bucket, allowance, at('2030-04-02T09:00:01Z')))),
    )
    expect(decisions.every((d) => d.allowed)).toBe(true)
    expect(store.writes.buckets).toBeGreaterThanOrEqual(600) // the third request of each needs a second minute block
    expect(store.writes.statements).toBeLessThanOrEqual(6) // not one per bucket
    for (const bucket of [many[0], many[150], many[299]]) {
      expect(await minuteCount(database, bucket, '2030-04-02T09:00:00Z')).toBe(4)
      expect(await dayCount(database, bucket, '2030-04-02T00:00:00Z')).toBe(5)
    }
    await store.close()
    for (const bucket of [many[0], many[299]]) {
      expect(await minuteCount(database, bucket, '2030-04-02T09:00:00Z')).toBe(3)
      expect(await dayCount(database, bucket, '2030-04-02T00:00:00Z')).toBe(3)
    }
  })

  test('drops counters of past windows', async () => {
    const store = await MemoryRateLimitStore.open(database, at('2030-03-10T10:00:00Z'))
    const first = newBucket()
    await store.take(first, small, at('2030-03-10T10:00:00Z'))
    for (let i = 0; i < 19; i++) await store.take(newBucket(), small, at('2030-03-10T10:00:00Z'))
    expect(store.heldCounters()).toBe(40)
    await store.take(newBucket(), small, at('2030-03-10T10:01:00Z'))
    expect(store.heldCounters()).toBe(22) // 21 day counters, 1 minute counter
    await store.take(newBucket(), small, at('2030-03-11T00:00:00Z'))
    expect(store.heldCounters()).toBe(2)
    await store.close()
    expect(await dayCount(database, first, '2030-03-10T00:00:00Z')).toBe(1) // dropped from memory, still written
  })
})

describe('postgres store sharing', () => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await freshDatabase()
  })
  afterAll(async () => {
    await database.close()
  })

  test('two instances over the same database share exact counts', async () => {
    const bucket = newBucket()
    const [a, b] = [new PostgresRateLimitStore(database), new PostgresRateLimitStore(database)]
    const allowance = { perMinute: 10, perDay: 15 }
    const now = at('2030-01-15T10:00:00Z')
    const decisions = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).take(bucket, allowance, now)),
    )
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10)
    expect(await a.take(bucket, allowance, at('2030-01-15T10:01:00Z'))).toMatchObject({ allowed: true, dayUsed: 11 })
    expect(await b.take(bucket, allowance, at('2030-01-15T10:01:00Z'))).toMatchObject({ allowed: true, dayUsed: 12 })
    expect(await dayCount(database, bucket, '2030-01-15T00:00:00Z')).toBe(12)
  })

  test('purgeExpired drops minute windows over an hour old and day windows over two days old', async () => {
    const bucket = newBucket()
    const store = new PostgresRateLimitStore(database)
    for (const iso of [
      '2030-02-01T08:00:00Z',
      '2030-02-02T09:00:00Z',
      '2030-02-03T09:30:00Z',
      '2030-02-03T10:00:00Z',
    ]) {
      await store.take(bucket, small, at(iso))
    }
    await store.purgeExpired(at('2030-02-03T10:29:00Z'))
    const left = await database.db
      .select({ window: rateLimitCounters.window, start: rateLimitCounters.windowStart })
      .from(rateLimitCounters)
      .where(eq(rateLimitCounters.bucket, bucket))
    expect(left.map((r) => `${r.window} ${r.start.toISOString()}`).sort()).toEqual([
      'day 2030-02-02T00:00:00.000Z',
      'day 2030-02-03T00:00:00.000Z',
      'minute 2030-02-03T09:30:00.000Z',
      'minute 2030-02-03T10:00:00.000Z',
    ])
  })
})
