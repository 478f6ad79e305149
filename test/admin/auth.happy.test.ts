import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { sessions } from '../../src/db/schema'
import { createAccount } from '../../src/accounts/accounts'
import { adminRequest, sessionFrom, useAdminApp } from '../support/admin'
import { freshDatabase } from '../support/database'
import { testApp } from '../support/app'

const api = useAdminApp()

describe('POST /api/auth/login', () => {
  test('answers with the user and sets an HttpOnly, SameSite=Lax, Secure session cookie for the absolute lifetime', async () => {
    const { id, username, password } = await api.account('member')
    const response = await api.call('/api/auth/login', { body: { username: username.toUpperCase(), password } })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ data: { user: { id, username, role: 'member', membership: 'active' } } })
    const cookie = response.headers.get('set-cookie')!
    expect(cookie).toMatch(/^geroscope_session=[A-Za-z0-9_-]{43}; /)
    const attributes = cookie
      .split('; ')
      .slice(1)
      .map((a) => a.toLowerCase())
    expect(attributes.sort()).toEqual(['httponly', 'max-age=43200', 'path=/api', 'samesite=lax', 'secure'])
    expect(response.headers.get('cache-control')).toBe('no-store')
  })

  test('stores only a hash of the token', async () => {
    const { id, username, password } = await api.account('member')
    const token = await api.login(username, password)
    const rows = await api.database.db.select().from(sessions).where(eq(sessions.accountId, id))
    expect(rows).toHaveLength(1)
    expect(rows[0].tokenHash).toMatch(/^[0-9a-f]{64}$/)
    expect(rows[0].tokenHash).not.toContain(token)
    expect(JSON.stringify(rows)).not.toContain(token)
  })

  test('starts a new session at every login and ignores a session cookie sent with it', async () => {
    const { username, password } = await api.account('member')
    const planted = 'A'.repeat(43) // an attacker's chosen id: never adopted
    const first = await api.call('/api/auth/login', { body: { username, password }, cookie: planted })
    const firstToken = sessionFrom(first)!
    expect(firstToken).not.toBe(planted)
    expect((await api.call('/api/auth/me', { cookie: planted })).status).toBe(401)

    // Logging in again with a live session's cookie replaces it: the old token ends.
    const second = await api.call('/api/auth/login', { body: { username, password }, cookie: firstToken })
    const secondToken = sessionFrom(second)!
    expect(secondToken).not.toBe(firstToken)
    expect((await api.call('/api/auth/me', { cookie: firstToken })).status).toBe(401)
    expect((await api.call('/api/auth/me', { cookie: secondToken })).status).toBe(200)
  })

  test('sets no Secure attribute when neither the request nor the public URL is https', async () => {
    const database = await freshDatabase()
    try {
      const app = await testApp(database, {}, { PUBLIC_BASE_URL: 'http://localhost:3000' })
      const [username, password] = ['plain-http', 'a long password']
      await createAccount(database.db, { username, password, role: 'member' })
      const plain = await app.handle(
        adminRequest('/api/auth/login', { body: { username, password } }, 'http://localhost:3000'),
      )
      expect(plain.status).toBe(200)
      expect(plain.headers.get('set-cookie')!.toLowerCase()).not.toContain('secure')
      const overHttps = await app.handle(
        adminRequest('/api/auth/login', { body: { username, password } }, 'https://localhost:3000'),
      )
      expect(overHttps.headers.get('set-cookie')!.toLowerCase()).toContain('; secure')
    } finally {
      await database.close()
    }
  })
})

describe('GET /api/auth/me', () => {
  test('answers with the user and when the session ends', async () => {
    api.clock.set('2026-11-20T10:00:00Z')
    const { id, username, password } = await api.account('admin')
    const token = await api.login(username, password)
    api.clock.advance(60_000)
    const response = await api.call('/api/auth/me', { cookie: token })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      data: {
        user: { id, username, role: 'admin', membership: 'active' },
        session: {
          created_at: '2026-11-20T10:00:00.000Z',
          expires_at: '2026-11-20T22:00:00.000Z',
          idle_expires_at: '2026-11-20T10:31:00.000Z',
        },
      },
    })
  })
})

describe('POST /api/auth/logout', () => {
  test('ends the session: the cookie is cleared, and sent again it is refused', async () => {
    const member = await api.member()
    const response = await api.call('/api/auth/logout', { method: 'POST', cookie: member.token })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ data: { logged_out: true } })
    expect(response.headers.get('set-cookie')).toMatch(
      /^geroscope_session=; Max-Age=0; Path=\/api; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax$/,
    )
    const replay = await api.call('/api/auth/me', { cookie: member.token })
    expect(replay.status).toBe(401)
    expect(await replay.json()).toEqual({
      error: {
        status: 401,
        code: 'unauthenticated',
        message: 'the session has ended (logged out or expired); sign in again',
      },
    })
    expect(sessionFrom(replay)).toBe('') // and tells the browser to drop it
    expect((await api.call('/api/auth/logout', { method: 'POST', cookie: member.token })).status).toBe(401)
  })
})

describe('session expiry', () => {
  test('ends after 30 idle minutes; each request moves the idle end', async () => {
    api.clock.set('2026-11-21T08:00:00Z')
    const member = await api.member()
    for (let i = 0; i < 4; i++) {
      api.clock.advance(29 * 60_000)
      expect((await api.call('/api/auth/me', { cookie: member.token })).status).toBe(200)
    }
    api.clock.advance(30 * 60_000)
    expect((await api.call('/api/auth/me', { cookie: member.token })).status).toBe(401)
    // Ended means gone: the row is deleted, so even a clock turned back finds nothing.
    api.clock.advance(-30 * 60_000)
    expect((await api.call('/api/auth/me', { cookie: member.token })).status).toBe(401)
  })

  test('ends 12 hours after login however busy it is', async () => {
    api.clock.set('2026-11-22T08:00:00Z')
    const member = await api.member()
    for (let minutes = 20; minutes < 12 * 60; minutes += 20) {
      api.clock.set(new Date(Date.parse('2026-11-22T08:00:00Z') + minutes * 60_000).toISOString())
      expect({ minutes, status: (await api.call('/api/auth/me', { cookie: member.token })).status }).toEqual({
        minutes,
        status: 200,
      })
    }
    api.clock.set('2026-11-22T20:00:00Z')
    expect((await api.call('/api/auth/me', { cookie: member.token })).status).toBe(401)
  })
})

describe('configured lifetimes', () => {
  const short = useAdminApp({ SESSION_IDLE_MINUTES: '5', SESSION_MAX_HOURS: '1' })

  test("SESSION_IDLE_MINUTES and SESSION_MAX_HOURS set the expiries and the cookie's Max-Age", async () => {
    short.clock.set('2026-11-23T08:00:00Z')
    const { username, password } = await short.account('member')
    const login = await short.call('/api/auth/login', { body: { username, password } })
    expect(login.headers.get('set-cookie')).toContain('Max-Age=3600')
    const token = sessionFrom(login)!
    short.clock.advance(4 * 60_000)
    const me = await (await short.call('/api/auth/me', { cookie: token })).json()
    expect(me.data.session).toMatchObject({
      expires_at: '2026-11-23T09:00:00.000Z',
      idle_expires_at: '2026-11-23T08:09:00.000Z',
    })
    short.clock.advance(5 * 60_000 + 1)
    expect((await short.call('/api/auth/me', { cookie: token })).status).toBe(401)
  })
})
