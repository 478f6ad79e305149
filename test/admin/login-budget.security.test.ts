/**
 * The failure budget per username: behind TRUST_PROXY an attacker spreads guesses
 * over many addresses, so the per-address limit alone lets 50 wrong passwords a minute through and
 * then accepts the right one at once. These tests speak from a fresh address each time.
 */
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { loginFailures } from '../../src/db/schema'
import { WORKER_JOBS } from '../../src/lifecycle/workers'
import { MAX_LOCK_MS, lockAfter } from '../../src/accounts/login-budget'
import { adminRequest, freshAddress, sessionFrom, useAdminApp } from '../support/admin'
import { testApp } from '../support/app'

const api = useAdminApp()
const login = (username: string, password: string, cookie?: string) =>
  api.call('/api/auth/login', { body: { username, password }, address: freshAddress(), cookie })
const answer = async (response: Response) => ({
  status: response.status,
  retryAfter: response.headers.get('retry-after'),
  body: await response.json(),
})

describe('failed logins per username', () => {
  test('50 wrong passwords from 50 addresses: 5 answered 401, the rest 429, and the right one is refused until the lock ends', async () => {
    api.clock.set('2026-11-28T10:00:00Z')
    const { username, password } = await api.account('admin')
    const answers = []
    for (let i = 0; i < 50; i++) answers.push(await answer(await login(username, `guess ${i}`)))
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([401, 401, 401, 401, 401])
    expect(answers.slice(5).every((a) => a.status === 429 && a.retryAfter === '30')).toBe(true)
    expect(answers[5].body).toEqual({
      error: {
        status: 429,
        code: 'rate_limited',
        message: 'too many failed logins for this username; retry after 30 seconds',
      },
    })
    const right = await login(username, password)
    expect(right.status).toBe(429)
    expect(sessionFrom(right)).toBeNull()
    api.clock.advance(30_000)
    expect((await login(username, password)).status).toBe(200)
  }, 240_000)

  test('a name no account has gets the very same answers', async () => {
    api.clock.set('2026-11-28T11:00:00Z')
    const { username } = await api.account('member')
    const sequence = async (name: string) => {
      const out = []
      for (let i = 0; i < 8; i++) out.push(await answer(await login(name, `guess ${i}`)))
      return out
    }
    const real = await sequence(username)
    const unknown = await sequence(`${username}-nobody`)
    expect(unknown).toEqual(real)
    expect(real.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 429, 429, 429])
  })

  test('the lock doubles from 30 seconds and never passes 15 minutes; the letter case of the name does not matter', async () => {
    api.clock.set('2026-11-28T12:00:00Z')
    const { username } = await api.account('admin')
    for (let i = 0; i < 5; i++) await login(i % 2 ? username.toUpperCase() : username, 'wrong')
    const waits = []
    for (let i = 0; i < 8; i++) {
      const refused = await login(username.toUpperCase(), 'wrong')
      expect(refused.status).toBe(429)
      const wait = Number(refused.headers.get('retry-after'))
      waits.push(wait)
      api.clock.advance(wait * 1000)
      expect((await login(username, 'wrong')).status).toBe(401) // the lock has ended: one more try, which locks again
    }
    expect(waits).toEqual([30, 60, 120, 240, 480, 900, 900, 900])
    expect(lockAfter(1000)).toBe(MAX_LOCK_MS)
  }, 240_000)

  test('attempts in flight at once cannot slip past the budget', async () => {
    api.clock.set('2026-11-28T13:00:00Z')
    const { username } = await api.account('admin')
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => login(username, `guess ${i}`)))
    const statuses = answers.map((r) => r.status).sort()
    expect(statuses.filter((s) => s === 401)).toHaveLength(5)
    expect(statuses.filter((s) => s === 429)).toHaveLength(15)
  })

  test('a success ends the streak', async () => {
    api.clock.set('2026-11-28T14:00:00Z')
    const { username, password } = await api.account('admin')
    for (let i = 0; i < 4; i++) expect((await login(username, 'wrong')).status).toBe(401)
    expect((await login(username, password)).status).toBe(200)
    for (let i = 0; i < 4; i++) expect((await login(username, 'wrong')).status).toBe(401)
  })

  test('a streak ends after an hour without a failure', async () => {
    api.clock.set('2026-11-28T15:00:00Z')
    const { username } = await api.account('admin')
    for (let i = 0; i < 4; i++) expect((await login(username, 'wrong')).status).toBe(401)
    api.clock.advance(60 * 60_000 + 1)
    for (let i = 0; i < 4; i++) expect((await login(username, 'wrong')).status).toBe(401)
  })

  test('a browser holding a live session of the account signs in while its name is locked', async () => {
    api.clock.set('2026-11-28T16:00:00Z')
    const { username, password } = await api.account('admin')
    const token = await api.login(username, password)
    for (let i = 0; i < 6; i++) await login(username, 'wrong')
    expect((await login(username, password)).status).toBe(429) // from anywhere else: locked
    const other = await api.account('admin')
    const othersToken = await api.login(other.username, other.password)
    expect((await login(username, password, othersToken)).status).toBe(429) // another account's session does not help
    const again = await login(username, password, token)
    expect(again.status).toBe(200)
    expect(sessionFrom(again)).not.toBe(token)
  })

  test('every instance over the database sees the same budget', async () => {
    api.clock.set('2026-11-28T17:00:00Z')
    const { username, password } = await api.account('admin')
    const second = await testApp(api.database, { now: api.clock.now }, { TRUST_PROXY: '1' })
    for (let i = 0; i < 5; i++) {
      const app = i % 2 ? second : api.app
      expect(
        (
          await app.handle(
            adminRequest('/api/auth/login', { body: { username, password: 'wrong' }, address: freshAddress() }),
          )
        ).status,
      ).toBe(401)
    }
    expect(
      (await second.handle(adminRequest('/api/auth/login', { body: { username, password }, address: freshAddress() })))
        .status,
    ).toBe(429)
  })

  test('the hourly job deletes streaks that have ended and keeps the rest', async () => {
    const job = WORKER_JOBS.find((j) => j.name === 'purge-login-failures')!
    expect(job.cron).toMatch(/^\d+ \* \* \* \*$/)
    const db = api.database.db
    const old = new Date(Date.now() - 2 * 60 * 60_000)
    await db.insert(loginFailures).values([
      { username: 'purge-ended', failures: 3, lastFailureAt: old },
      { username: 'purge-recent', failures: 3, lastFailureAt: new Date() },
      { username: 'purge-still-locked', failures: 30, lastFailureAt: old, lockedUntil: new Date(Date.now() + 60_000) },
    ])
    await job.run(api.database, undefined as never)
    const left = async (name: string) =>
      (await db.select().from(loginFailures).where(eq(loginFailures.username, name))).length
    expect([await left('purge-ended'), await left('purge-recent'), await left('purge-still-locked')]).toEqual([0, 1, 1])
  })
})
