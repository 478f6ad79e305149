import { beforeAll, describe, expect, test } from 'bun:test'
import { accessFor } from '../../src/modules/admin/access'
import { freshAddress, useAdminApp } from '../support/admin'
import { freshDatabase } from '../support/database'
import { testApp } from '../support/app'

const api = useAdminApp()

let member: { token: string }
let operator: { token: string }
beforeAll(async () => {
  member = await api.member()
  operator = await api.operator()
})

const forbidden = (message: string) => ({ error: { status: 403, code: 'forbidden', message } })

describe('cross-site requests', () => {
  // A key revocation stands for every state-changing request: the gate refuses before the route runs.
  test.each([
    ['Origin of another site', { origin: 'https://evil.test' }, 403],
    ['Origin "null" (sandboxed frame, file:)', { origin: 'null' }, 403],
    ['Origin of our public URL', { origin: 'https://geroscope.test' }, 404],
    ['Origin the request was sent to', { origin: 'https://geroscope.test' }, 404],
    ['Origin on another port of our host', { origin: 'https://geroscope.test:8443' }, 403],
    ['Origin over http of our https host', { origin: 'http://geroscope.test' }, 403],
    ['no Origin, Referer of another site', { referer: 'https://evil.test/page' }, 403],
    ['no Origin, an unreadable Referer', { referer: 'not a url' }, 403],
    ['no Origin, Referer of our own page', { referer: 'https://geroscope.test/admin/keys' }, 404],
    [
      'Origin ours but Referer another site (Origin decides)',
      { origin: 'https://geroscope.test', referer: 'https://evil.test/' },
      404,
    ],
    ['neither header (curl, scripts): allowed', {}, 404],
  ])('%s', async (_, headers, status) => {
    const response = await api.call('/api/keys/AbCdEfGh', { method: 'DELETE', cookie: member.token, headers })
    expect(response.status).toBe(status)
    if (status === 403) expect((await response.json()).error.code).toBe('forbidden')
  })

  test.each(['POST', 'PUT', 'PATCH', 'DELETE'])('%s from another site is refused, GET is not', async (method) => {
    const refused = await api.call('/api/sources/1', {
      method,
      cookie: operator.token,
      headers: { origin: 'https://evil.test' },
    })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual(
      forbidden("cross-site request refused: Origin https://evil.test is not this service's"),
    )
    expect(
      (await api.call('/api/sources', { cookie: operator.token, headers: { origin: 'https://evil.test' } })).status,
    ).toBe(200)
  })

  test('a forged request uses none of the allowance of the address it came from', async () => {
    const address = freshAddress()
    for (let i = 0; i < 12; i++) {
      expect(
        (
          await api.call('/api/auth/login', {
            body: { username: 'x', password: 'y' },
            address,
            headers: { origin: 'https://evil.test' },
          })
        ).status,
      ).toBe(403)
    }
    expect((await api.call('/api/auth/login', { body: { username: 'x', password: 'y' }, address })).status).toBe(401)
  })

  test('a login from another site is refused too (login forgery)', async () => {
    const { username, password } = await api.account('member')
    const response = await api.call('/api/auth/login', {
      body: { username, password },
      headers: { origin: 'https://evil.test' },
    })
    expect(response.status).toBe(403)
    expect(response.headers.get('set-cookie')).toBeNull()
  })
})

describe('access', () => {
  const routes = () =>
    api.app.routes
      .filter((r) => r.path.startsWith('/api/') && !r.path.startsWith('/api/v1') && r.method !== 'OPTIONS')
      .map((r) => ({ method: r.method, path: r.path.replace(/:(\w+)/g, '1') }))

  test('every admin route but login, logout, me, password, the OpenAPI document, its reference page and /api/keys is for operators', () => {
    const open = routes()
      .filter((r) => accessFor(r.method, r.path) !== 'operator')
      .map((r) => `${r.method} ${r.path}`)
    expect(open.sort()).toEqual([
      'DELETE /api/keys/1',
      'GET /api/auth/me',
      'GET /api/docs',
      'GET /api/keys',
      'GET /api/openapi.json',
      'POST /api/auth/login',
      'POST /api/auth/logout',
      'POST /api/auth/password',
      'POST /api/keys',
    ])
    expect(routes().length).toBeGreaterThan(open.length + 10)
  })

  test('a member gets 403 forbidden on every operator route, before its body is read', async () => {
    for (const { method, path } of routes().filter((r) => accessFor(r.method, r.path) === 'operator')) {
      const response = await api.call(path, {
        method,
        cookie: member.token,
        raw: method === 'GET' ? undefined : '{not json',
        headers: { 'content-type': 'application/json' },
      })
      expect({ method, path, status: response.status, body: await response.json() }).toEqual({
        method,
        path,
        status: 403,
        body: forbidden('this endpoint is for operators'),
      })
    }
  })

  test('an unknown path is 404 for an operator, 403 for a member', async () => {
    expect((await api.call('/api/nowhere', { cookie: operator.token })).status).toBe(404)
    expect((await api.call('/api/nowhere', { cookie: member.token })).status).toBe(403)
  })

  test('a member who becomes an operator is one from the next request (roles are read per request)', async () => {
    const promoted = await api.member()
    expect((await api.call('/api/sources', { cookie: promoted.token })).status).toBe(403)
    const { accounts } = await import('../../src/db/schema')
    const { eq } = await import('drizzle-orm')
    await api.database.db.update(accounts).set({ role: 'admin' }).where(eq(accounts.id, promoted.id))
    expect((await api.call('/api/sources', { cookie: promoted.token })).status).toBe(200)
  })
})

describe('rate limits', () => {
  test('10 requests a minute per address without a session, then 429 with Retry-After', async () => {
    api.clock.set('2026-11-24T10:00:15Z')
    const address = freshAddress()
    for (let i = 0; i < 10; i++) expect((await api.call('/api/openapi.json', { address })).status).toBe(200)
    const refused = await api.call('/api/auth/me', { address })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('45')
    expect(await refused.json()).toEqual({
      error: { status: 429, code: 'rate_limited', message: 'rate limit reached; retry after 45 seconds' },
    })
    expect((await api.call('/api/openapi.json', { address: freshAddress() })).status).toBe(200) // another address is not held back
    api.clock.set('2026-11-24T10:01:00Z')
    expect((await api.call('/api/openapi.json', { address })).status).toBe(200)
  })

  test('failed logins count against the address: the 11th attempt in a minute is refused, right password or not', async () => {
    api.clock.set('2026-11-24T11:00:00Z')
    const { username, password } = await api.account('member')
    const address = freshAddress()
    // Guesses at other names: ten at one name would meet its own failure budget first (login-budget.test.ts).
    for (let i = 0; i < 10; i++) {
      expect(
        (await api.call('/api/auth/login', { body: { username: `${username}-${i}`, password: `guess ${i}` }, address }))
          .status,
      ).toBe(401)
    }
    const refused = await api.call('/api/auth/login', { body: { username, password }, address })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('60')
    expect(refused.headers.get('set-cookie')).toBeNull()
  })

  test('a login counts against the address even when it carries a live session', async () => {
    api.clock.set('2026-11-24T12:00:00Z')
    const signedIn = await api.member()
    const address = freshAddress()
    for (let i = 0; i < 10; i++) {
      expect(
        (
          await api.call('/api/auth/login', {
            body: { username: `x${i}`, password: 'y' },
            cookie: signedIn.token,
            address,
          })
        ).status,
      ).toBe(401)
    }
    expect(
      (await api.call('/api/auth/login', { body: { username: 'x', password: 'y' }, cookie: signedIn.token, address }))
        .status,
    ).toBe(429)
  })

  test('100 requests a minute per signed-in account, from any address', async () => {
    api.clock.set('2026-11-24T13:00:00Z')
    const busy = await api.member() // the login counted against its address, not the account
    const other = await api.member()
    api.clock.set('2026-11-24T13:00:30Z')
    for (let i = 0; i < 99; i++) expect((await api.call('/api/auth/me', { cookie: busy.token })).status).toBe(200)
    expect((await api.call('/api/keys', { cookie: busy.token })).status).toBe(200)
    const refused = await api.call('/api/auth/me', { cookie: busy.token })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('30')
    expect((await api.call('/api/auth/me', { cookie: other.token })).status).toBe(200) // others are not held back
    api.clock.set('2026-11-24T13:01:00Z')
    expect((await api.call('/api/auth/me', { cookie: busy.token })).status).toBe(200)
  })
})

describe('client address', () => {
  test('X-Forwarded-For is ignored unless TRUST_PROXY is set', async () => {
    const database = await freshDatabase()
    try {
      const app = await testApp(database, {}) // TRUST_PROXY unset
      const call = (address: string) =>
        app.handle(new Request('https://geroscope.test/api/openapi.json', { headers: { 'x-forwarded-for': address } }))
      // Every request came from the same (unknown) peer, so rotating the header buys nothing.
      for (let i = 0; i < 10; i++) expect((await call(`192.0.2.${i + 1}`)).status).toBe(200)
      expect((await call('192.0.2.99')).status).toBe(429)
    } finally {
      await database.close()
    }
  })
})

describe('bodies', () => {
  test('a body declared over 256 KB is refused before it is read', async () => {
    const { token } = await api.operator()
    const raw = JSON.stringify({ text: 'x'.repeat(300_000) })
    const response = await api.call('/api/prompts/judge', {
      method: 'PUT',
      cookie: token,
      raw,
      headers: { 'content-type': 'application/json', 'content-length': String(raw.length) },
    })
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({
      error: { status: 413, code: 'invalid_parameter', message: 'the body must be at most 256 KiB (262144 bytes)' },
    })
  })
})
