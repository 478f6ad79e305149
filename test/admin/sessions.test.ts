import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sessions } from '../../src/db/schema'
import { createAccount } from '../../src/accounts/accounts'
import { purgeEndedSessions, resumeSession, startSession, type SessionAccount } from '../../src/accounts/sessions'
import { parseConfig } from '../../src/config'
import { WORKER_JOBS } from '../../src/lifecycle/workers'
import { freshDatabase, type TestDatabase } from '../support/database'

let database: TestDatabase
let account: SessionAccount
beforeAll(async () => {
  database = await freshDatabase()
  account = await createAccount(database.db, { username: 'sessions', password: 'a long password', role: 'member' })
})
afterAll(async () => {
  await database.close()
})

const policy = { idleMs: 30 * 60_000, maxMs: 12 * 3_600_000 }
const at = (iso: string) => new Date(iso)

describe('purgeEndedSessions', () => {
  test('deletes sessions ended by either expiry and keeps live ones', async () => {
    const row = (hash: string, created: string, seen: string) => ({
      tokenHash: hash,
      accountId: account.id,
      createdAt: at(created),
      lastSeenAt: at(seen),
      expiresAt: new Date(at(created).getTime() + policy.maxMs),
    })
    await database.db.insert(sessions).values([
      row('idle', '2026-11-20T08:00:00Z', '2026-11-20T09:00:00Z'), // idle 40 minutes at 09:40
      row('old', '2026-11-19T21:30:00Z', '2026-11-20T09:35:00Z'), // busy, but 12 hours old at 09:30
      row('live', '2026-11-20T08:00:00Z', '2026-11-20T09:20:00Z'),
    ])
    expect(await purgeEndedSessions(database.db, at('2026-11-20T09:40:00Z'), policy)).toBe(2)
    expect(await database.db.select({ hash: sessions.tokenHash }).from(sessions)).toEqual([{ hash: 'live' }])
    await database.db.delete(sessions)
  })

  test('a shorter SESSION_MAX_HOURS applies to sessions already open', async () => {
    const { token } = await startSession(database.db, account, at('2026-11-21T09:00:00Z'), policy)
    const shorter = { idleMs: 2 * 3_600_000, maxMs: 3_600_000 }
    expect(await resumeSession(database.db, token, at('2026-11-21T09:59:00Z'), shorter)).toMatchObject({
      expiresAt: at('2026-11-21T10:00:00Z'),
    })
    expect(await resumeSession(database.db, token, at('2026-11-21T10:00:01Z'), shorter)).toBeNull()
  })
})

describe('the purge-sessions job', () => {
  test('runs hourly and purges by the configured lifetimes', async () => {
    const job = WORKER_JOBS.find((j) => j.name === 'purge-sessions')!
    expect(job.cron).toMatch(/^\d+ \* \* \* \*$/)
    const now = Date.now()
    await database.db.insert(sessions).values([
      {
        tokenHash: 'job-idle',
        accountId: account.id,
        createdAt: new Date(now - 3_600_000),
        lastSeenAt: new Date(now - 10 * 60_000),
        expiresAt: new Date(now + 3_600_000),
      },
      {
        tokenHash: 'job-live',
        accountId: account.id,
        createdAt: new Date(now - 3_600_000),
        lastSeenAt: new Date(now - 60_000),
        expiresAt: new Date(now + 3_600_000),
      },
    ])
    expect(await job.run(database, parseConfig({ SESSION_IDLE_MINUTES: '5' }))).toEqual({ deleted: 1 })
    expect((await database.db.select({ hash: sessions.tokenHash }).from(sessions)).map((r) => r.hash)).toContain(
      'job-live',
    )
  })
})
