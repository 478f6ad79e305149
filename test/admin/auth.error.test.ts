import { describe, expect, test } from 'bun:test'
import { authenticate, dummyPasswordHash } from '../../src/accounts/accounts'
import { verifyPassword } from '../../src/platform/password'
import { useAdminApp } from '../support/admin'

const api = useAdminApp()

const invalid = (message: string) => ({ error: { status: 400, code: 'invalid_parameter', message } })

describe('POST /api/auth/login refuses', () => {
  test('a wrong password and an unknown username alike: 401 invalid_credentials, same message', async () => {
    const { username } = await api.account('member')
    const wrongPassword = await api.call('/api/auth/login', { body: { username, password: 'not the password' } })
    const unknownUser = await api.call('/api/auth/login', {
      body: { username: 'nobody-at-all', password: 'not the password' },
    })
    for (const response of [wrongPassword, unknownUser]) {
      expect(response.status).toBe(401)
      expect(response.headers.get('set-cookie')).toBeNull()
      expect(await response.json()).toEqual({
        error: { status: 401, code: 'invalid_credentials', message: 'wrong username or password' },
      })
    }
  })

  test('an account without a usable password hash, with the same answer', async () => {
    const { database } = api
    const { accounts } = await import('../../src/db/schema')
    await database.db.insert(accounts).values({ username: 'locked-out', passwordHash: '!', role: 'admin' })
    const response = await api.call('/api/auth/login', { body: { username: 'locked-out', password: '!' } })
    expect(response.status).toBe(401)
    expect((await response.json()).error.code).toBe('invalid_credentials')
  })

  test.each([
    ['no body', { raw: undefined, body: undefined }, 'missing field "username"'],
    ['a missing password', { body: { username: 'a' } }, 'missing field "password"'],
    [
      'an unknown field',
      { body: { username: 'a', password: 'b', remember: true } },
      'unknown field "remember"; this endpoint takes username, password',
    ],
    ['a number for a username', { body: { username: 12, password: 'b' } }, 'username must be a string (got number)'],
    ['an empty username', { body: { username: ' ', password: 'b' } }, 'username must not be empty'],
    ['a JSON array', { body: ['a', 'b'] }, 'the body must be a JSON object (got array)'],
    [
      'JSON null',
      { raw: 'null', headers: { 'content-type': 'application/json' } },
      'the body must be a JSON object (got null)',
    ],
    [
      'a form post',
      { raw: 'username=a&password=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      'the body must be JSON, sent with Content-Type: application/json (got application/x-www-form-urlencoded)',
    ],
    [
      'broken JSON',
      { raw: '{"username":', headers: { 'content-type': 'application/json' } },
      'the request body is not valid for its content type',
    ],
    [
      'a NUL in the password',
      { body: { username: 'a', password: 'b\u0000c' } },
      'password must not contain the NUL character (\\u0000)',
    ],
    [
      'a password longer than 1,024 characters',
      { body: { username: 'a', password: 'x'.repeat(1025) } },
      'password must be at most 1,024 characters long (got 1,025)',
    ],
  ])('%s: 400 naming the problem', async (_, options, message) => {
    const response = await api.call('/api/auth/login', { method: 'POST', ...options } as never)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual(invalid(message))
  })
})

describe('authenticate', () => {
  test('verifies an unknown username against the dummy hash, so it costs what a wrong password costs', async () => {
    const { username, password } = await api.account('member')
    const calls: string[] = []
    const verify = (p: string, hash: string) => {
      calls.push(hash)
      return verifyPassword(p, hash)
    }
    expect(await authenticate(api.database.db, 'nobody-here', password, { verify })).toBeNull()
    expect(await authenticate(api.database.db, username, 'wrong password', { verify })).toBeNull()
    expect((await authenticate(api.database.db, username, password, { verify }))?.username).toBe(username)
    const dummy = await dummyPasswordHash()
    expect(calls).toHaveLength(3)
    expect(calls[0]).toBe(dummy)
    expect(calls[1]).not.toBe(dummy)
    // The dummy is a real hash of the same algorithm and cost as the account's, not a cheap stand-in.
    expect(dummy.replace(/\$[^$]+\$[^$]+$/, '')).toBe(calls[1].replace(/\$[^$]+\$[^$]+$/, ''))
  })
})

describe('without a session', () => {
  test.each([
    ['GET', '/api/auth/me'],
    ['POST', '/api/auth/logout'],
    ['GET', '/api/keys'],
    ['POST', '/api/keys'],
    ['DELETE', '/api/keys/AbCdEfGh'],
    ['GET', '/api/accounts'],
    ['GET', '/api/sources'],
    ['POST', '/api/scrape'],
    ['GET', '/api/prompts'],
    ['GET', '/api/no-such-area'],
  ])('%s %s is 401 unauthenticated', async (method, path) => {
    const response = await api.call(path, { method })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({
      error: {
        status: 401,
        code: 'unauthenticated',
        message: 'sign in first: POST /api/auth/login, then send the session cookie it sets',
      },
    })
  })

  test('a cookie that is not a session token is the same as none, without a database look-up', async () => {
    for (const cookie of ['x', 'geroscope_session=%', 'geroscope_session=' + 'a'.repeat(500)]) {
      const response = await api.call('/api/auth/me', { cookie })
      expect(response.status).toBe(401)
    }
  })
})
