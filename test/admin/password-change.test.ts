/**
 * POST /api/auth/password: the signed-in account changes its password by giving the current one; every other session
 * of the account ends, the one that made the change goes on; a wrong current password is the login's 401
 * invalid_credentials and spends the same failure budget; a weak or oversized new one is a 400 naming it.
 */
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { accounts } from '../../src/db/schema'
import { useAdminApp } from '../support/admin'

const api = useAdminApp()

const change = (token: string | null, body: unknown, headers: Record<string, string> = {}) =>
  api.call('/api/auth/password', { cookie: token, body, headers })
const me = async (token: string) => (await api.call('/api/auth/me', { cookie: token })).status
const loginStatus = async (username: string, password: string) =>
  (await api.call('/api/auth/login', { body: { username, password } })).status
const invalid = (message: string) => ({ error: { status: 400, code: 'invalid_parameter', message } })
const NEW = 'a new and longer password'
const TOO_SHORT = 'new_password must be at least 10 characters long'

describe('POST /api/auth/password', () => {
  test('sets the new password, ends every other session of the account and keeps the current one', async () => {
    const { id, username, password } = await api.account('member')
    const here = await api.login(username, password)
    const elsewhere = await api.login(username, password)
    const third = await api.login(username, password)
    const someoneElse = await api.operator()
    const before = (await api.database.db.select().from(accounts).where(eq(accounts.id, id)))[0].passwordHash

    const response = await change(here, { current_password: password, new_password: 'a new and longer password' })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ data: { password_changed: true, sessions_ended: 2 } })
    expect(response.headers.get('set-cookie')).toBeNull() // the current session keeps its cookie

    expect(await me(here)).toBe(200)
    expect(await me(elsewhere)).toBe(401)
    expect(await me(third)).toBe(401)
    expect(await me(someoneElse.token)).toBe(200) // another account's session is untouched
    expect(await loginStatus(username, password)).toBe(401)
    expect(await loginStatus(username, 'a new and longer password')).toBe(200)

    const [row] = await api.database.db.select().from(accounts).where(eq(accounts.id, id))
    expect(row.passwordHash).not.toBe(before)
    expect(row.passwordHash).toStartWith('$argon2id$') // the same slow hash as every password
    expect(row.passwordHash).not.toContain('a new and longer password')
  })

  test('operators change theirs the same way', async () => {
    const { username, password } = await api.account('admin')
    const token = await api.login(username, password)
    expect((await change(token, { current_password: password, new_password: 'operator password 2' })).status).toBe(200)
    expect(await me(token)).toBe(200)
    expect(await loginStatus(username, 'operator password 2')).toBe(200)
  })

  test('a wrong current password is 401 invalid_credentials; the session goes on and the password stays', async () => {
    const { username, password } = await api.account('member')
    const token = await api.login(username, password)
    const other = await api.login(username, password)
    const response = await change(token, { current_password: 'not the password', new_password: NEW })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({
      error: { status: 401, code: 'invalid_credentials', message: "current_password is not the account's password" },
    })
    expect(response.headers.get('set-cookie')).toBeNull()
    expect(await me(token)).toBe(200)
    expect(await me(other)).toBe(200)
    expect(await loginStatus(username, password)).toBe(200)
  })

  test("wrong current passwords spend the username's login budget: a 429 with Retry-After once spent", async () => {
    const { username, password } = await api.account('member')
    const token = await api.login(username, password)
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) {
      statuses.push((await change(token, { current_password: `wrong guess ${i}`, new_password: NEW })).status)
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
    const locked = await change(token, { current_password: password, new_password: NEW })
    expect(locked.status).toBe(429) // the right one too, while locked
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0)
    api.clock.advance(31_000)
    expect((await change(token, { current_password: password, new_password: NEW })).status).toBe(200)
  })

  test.each([
    ['a new password under 10 characters', { current_password: 'x', new_password: 'short' }, TOO_SHORT],
    ['a new password of spaces', { current_password: 'x', new_password: ' '.repeat(12) }, TOO_SHORT],
    [
      'a new password over 1,024 characters',
      { current_password: 'x', new_password: 'y'.repeat(1025) },
      'new_password must be at most 1,024 characters long (got 1,025)',
    ],
    [
      'an oversized current password',
      { current_password: 'y'.repeat(1025), new_password: NEW },
      'current_password must be at most 1,024 characters long (got 1,025)',
    ],
    ['no new password', { current_password: 'x' }, 'missing field "new_password"'],
    ['an empty current password', { current_password: '', new_password: NEW }, 'current_password must not be empty'],
    ['a number', { current_password: 'x', new_password: 1234567890123 }, 'new_password must be a string (got number)'],
    [
      'an unknown field',
      { current_password: 'x', new_password: NEW, password: 'x' },
      'unknown field "password"; this endpoint takes current_password, new_password',
    ],
    [
      'the same password again',
      { current_password: 'the same password', new_password: 'the same password' },
      'new_password must differ from current_password',
    ],
  ])('%s: 400 naming the field, nothing changed', async (_, body, message) => {
    const { username, password } = await api.account('member')
    const token = await api.login(username, password)
    const other = await api.login(username, password)
    const response = await change(token, body)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual(invalid(message))
    expect(await me(other)).toBe(200)
    expect(await loginStatus(username, password)).toBe(200)
  })

  test('needs a session (401) and our own origin (403)', async () => {
    const { username, password } = await api.account('member')
    const body = { current_password: password, new_password: 'a new and longer password' }
    expect((await change(null, body)).status).toBe(401)
    const token = await api.login(username, password)
    const forged = await change(token, body, { origin: 'https://evil.test' })
    expect(forged.status).toBe(403)
    expect((await forged.json()).error.code).toBe('forbidden')
    expect(await loginStatus(username, password)).toBe(200) // unchanged
  })
})
