/**
 * Operators' hold on an account: disabling it ends its sessions at once, refuses its logins and makes the Data API
 * refuse its keys within 2 seconds, through the key cache; enabling it undoes that. Ending an account's sessions and
 * an operator's password reset sign it out everywhere. A member's lapsed membership ends the member's sessions, at
 * once through the API and at the next request at the latest however it is set. Members get 403 on all of these.
 */
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { accounts } from '../../src/db/schema'
import { useAdminApp } from '../support/admin'
import { eventually } from '../support/eventually'
import { bearer } from '../support/fixtures'

const api = useAdminApp()

const me = async (token: string) => (await api.call('/api/auth/me', { cookie: token })).status
const loginStatus = async (username: string, password: string) =>
  (await api.call('/api/auth/login', { body: { username, password } })).status
const v1 = (key: string) => api.app.handle(new Request('https://geroscope.test/api/v1/topics', bearer(key)))
const json = async (response: Response) => ({ status: response.status, body: await response.json() })
/** An operator's (or anyone's) request with their session, answered as { status, body }. */
const by = async (token: string, method: string, path: string, body?: unknown) =>
  json(await api.call(path, { cookie: token, method, body }))
const error = (status: number, code: string, message: string) => ({
  status,
  body: { error: { status, code, message } },
})

/** A member signed in twice, with an API key that the Data API has answered (so its record is in the key cache). */
async function memberInUse(operator: string) {
  const member = await api.account('member')
  const signIn = () => api.login(member.username, member.password)
  const sessions = [await signIn(), await signIn()]
  const created = await by(operator, 'POST', `/api/accounts/${member.id}/keys`, { tier: 'member' })
  const key = created.body.data.key as string
  expect((await v1(key)).status).toBe(200)
  return { ...member, sessions, key }
}

describe('POST /api/accounts/{id}/disable and /enable', () => {
  test('disabling ends the sessions at once, refuses logins, and the Data API refuses the keys in 2 s', async () => {
    const operator = await api.operator()
    const member = await memberInUse(operator.token)
    const disabled = await by(operator.token, 'POST', `/api/accounts/${member.id}/disable`)
    expect(disabled).toEqual({
      status: 200,
      body: {
        data: {
          account: {
            id: member.id,
            username: member.username,
            role: 'member',
            membership: 'active',
            created_at: expect.any(String),
            disabled: true,
            disabled_at: api.clock.now().toISOString(),
          },
          sessions_ended: 2,
        },
      },
    })
    for (const token of member.sessions) expect(await me(token)).toBe(401)
    const started = performance.now()
    expect(await eventually(async () => (await v1(member.key)).status === 401, 2000)).toBe(true)
    expect(performance.now() - started).toBeLessThan(2000)
    expect(await (await v1(member.key)).json()).toEqual({
      error: { status: 401, code: 'revoked_key', message: "the API key's account has been disabled by an operator" },
    })
    const login = await api.call('/api/auth/login', { body: { username: member.username, password: member.password } })
    expect(await json(login)).toEqual({
      status: 401,
      body: { error: { status: 401, code: 'invalid_credentials', message: 'wrong username or password' } },
    })
    const read = await json(await api.call(`/api/accounts/${member.id}`, { cookie: operator.token }))
    expect(read.body.data).toMatchObject({ disabled: true, disabled_at: disabled.body.data.account.disabled_at })

    // Disabling again changes nothing and keeps the first time.
    api.clock.advance(60_000)
    const again = await by(operator.token, 'POST', `/api/accounts/${member.id}/disable`)
    expect(again.body.data).toEqual({ account: disabled.body.data.account, sessions_ended: 0 })

    const enabled = await by(operator.token, 'POST', `/api/accounts/${member.id}/enable`, {})
    expect(enabled.status).toBe(200)
    expect(enabled.body.data).toEqual({
      account: { ...disabled.body.data.account, disabled: false, disabled_at: null },
      sessions_ended: 0,
    })
    // The key was not revoked: it works again.
    expect(await eventually(async () => (await v1(member.key)).status === 200, 2000)).toBe(true)
    for (const token of member.sessions) expect(await me(token)).toBe(401) // ended sessions stay ended
    expect(await loginStatus(member.username, member.password)).toBe(200)
  })

  test('an account disabled outside the API (another process, SQL) loses its session at the next request', async () => {
    const member = await api.account('member')
    const token = await api.login(member.username, member.password)
    expect(await me(token)).toBe(200)
    await api.database.db.update(accounts).set({ disabledAt: new Date() }).where(eq(accounts.id, member.id))
    expect(await me(token)).toBe(401)
    await api.database.db.update(accounts).set({ disabledAt: null }).where(eq(accounts.id, member.id))
    expect(await me(token)).toBe(401) // the session was ended, not paused
  })

  test('an operator cannot disable their own account (409); another operator can disable an operator', async () => {
    const operator = await api.operator()
    const other = await api.operator()
    expect(await by(operator.token, 'POST', `/api/accounts/${operator.id}/disable`)).toEqual(
      error(409, 'conflict', 'you cannot disable your own account; another operator or the command line can'),
    )
    expect(await me(operator.token)).toBe(200)
    expect((await by(operator.token, 'POST', `/api/accounts/${other.id}/disable`)).status).toBe(200)
    expect(await me(other.token)).toBe(401)
  })
})

describe('DELETE /api/accounts/{id}/sessions', () => {
  test('ends every session of the account at once; the account may sign in again', async () => {
    const operator = await api.operator()
    const member = await memberInUse(operator.token)
    const ended = await by(operator.token, 'DELETE', `/api/accounts/${member.id}/sessions`)
    expect(ended).toEqual({ status: 200, body: { data: { sessions_ended: 2 } } })
    for (const token of member.sessions) expect(await me(token)).toBe(401)
    expect(await me(operator.token)).toBe(200)
    expect((await v1(member.key)).status).toBe(200) // keys are not sessions
    expect(await loginStatus(member.username, member.password)).toBe(200)
  })

  test("for the operator's own account it ends the calling session too, and clears its cookie", async () => {
    const operator = await api.operator()
    const path = `/api/accounts/${operator.id}/sessions`
    const response = await api.call(path, { cookie: operator.token, method: 'DELETE' })
    expect(await json(response)).toEqual({ status: 200, body: { data: { sessions_ended: 1 } } })
    expect(response.headers.get('set-cookie')).toContain('geroscope_session=;')
    expect(await me(operator.token)).toBe(401)
  })
})

describe('POST /api/accounts/{id}/password', () => {
  test("an operator's reset sets the password and ends every session of the account", async () => {
    const operator = await api.operator()
    const member = await memberInUse(operator.token)
    const body = { new_password: 'reset by the operator' }
    const reset = await by(operator.token, 'POST', `/api/accounts/${member.id}/password`, body)
    expect(reset).toEqual({ status: 200, body: { data: { sessions_ended: 2 } } })
    for (const token of member.sessions) expect(await me(token)).toBe(401)
    expect(await loginStatus(member.username, member.password)).toBe(401)
    expect(await loginStatus(member.username, 'reset by the operator')).toBe(200)
  })

  test('a weak password is a 400 naming new_password', async () => {
    const operator = await api.operator()
    const member = await api.account('member')
    expect(await by(operator.token, 'POST', `/api/accounts/${member.id}/password`, { new_password: 'short' })).toEqual(
      error(400, 'invalid_parameter', 'new_password must be at least 10 characters long'),
    )
  })
})

describe('a lapsed membership', () => {
  test("set through the API ends the member's sessions at once; the member may sign in again, lapsed", async () => {
    const operator = await api.operator()
    const member = await memberInUse(operator.token)
    const patch = await by(operator.token, 'PATCH', `/api/accounts/${member.id}`, { membership: 'lapsed' })
    expect(patch.status).toBe(200)
    for (const token of member.sessions) expect(await me(token)).toBe(401)
    const again = await api.login(member.username, member.password)
    const who = await (await api.call('/api/auth/me', { cookie: again })).json()
    expect(who.data.user.membership).toBe('lapsed')
    expect(await me(again)).toBe(200) // a session begun lapsed goes on
    expect((await by(operator.token, 'PATCH', `/api/accounts/${member.id}`, { membership: 'lapsed' })).status).toBe(200)
    expect(await me(again)).toBe(200) // and lapsing again is no change that ends it
  })

  test("set any other way ends the member's session at its next request", async () => {
    const member = await api.account('member')
    const token = await api.login(member.username, member.password)
    expect(await me(token)).toBe(200)
    await api.database.db.update(accounts).set({ membership: 'lapsed' }).where(eq(accounts.id, member.id))
    expect(await me(token)).toBe(401)
  })

  test("an operator's membership does not matter to their sessions", async () => {
    const operator = await api.operator()
    const other = await api.operator()
    expect((await by(operator.token, 'PATCH', `/api/accounts/${other.id}`, { membership: 'lapsed' })).status).toBe(200)
    expect(await me(other.token)).toBe(200)
  })
})

describe('who may', () => {
  const writes = (id: number): [string, string, unknown][] => [
    ['POST', `/api/accounts/${id}/disable`, undefined],
    ['POST', `/api/accounts/${id}/enable`, undefined],
    ['DELETE', `/api/accounts/${id}/sessions`, undefined],
    ['POST', `/api/accounts/${id}/password`, { new_password: 'taken over by someone' }],
  ]

  test('members get 403, without a session 401, from another site 403: and nothing changes', async () => {
    const member = await api.member()
    const target = await api.account('member')
    const targetToken = await api.login(target.username, target.password)
    const operator = await api.operator()
    for (const [method, path, body] of writes(target.id)) {
      const asMember = await by(member.token, method, path, body)
      expect(asMember).toEqual(error(403, 'forbidden', 'this endpoint is for operators'))
      expect((await api.call(path, { method, body })).status).toBe(401)
      const headers = { origin: 'https://evil.test' }
      const forged = await api.call(path, { cookie: operator.token, method, body, headers })
      expect(forged.status).toBe(403)
    }
    expect(await me(targetToken)).toBe(200)
    expect(await loginStatus(target.username, target.password)).toBe(200)
  })

  test.each([
    ['/api/accounts/999999/disable', 'POST', 404, 'no account with id 999999'],
    ['/api/accounts/999999/enable', 'POST', 404, 'no account with id 999999'],
    ['/api/accounts/999999/sessions', 'DELETE', 404, 'no account with id 999999'],
    ['/api/accounts/0/disable', 'POST', 400, 'id must be a positive integer (got "0")'],
    ['/api/accounts/%ff/sessions', 'DELETE', 400, 'id in the path is not valid percent-encoded UTF-8'],
  ])('%s (%s): %d', async (path, method, status, message) => {
    const operator = await api.operator()
    const response = await by(operator.token, method, path)
    expect(response.status).toBe(status)
    expect(response.body.error.message).toBe(message)
  })

  test('disable takes no body fields', async () => {
    const operator = await api.operator()
    const member = await api.account('member')
    const response = await by(operator.token, 'POST', `/api/accounts/${member.id}/disable`, { reason: 'x' })
    expect(response.status).toBe(400)
    expect(response.body.error.message).toStartWith('unknown field "reason"')
  })
})
