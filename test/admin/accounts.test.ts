import { beforeAll, describe, expect, test } from 'bun:test'
import { useAdminApp } from '../support/admin'
import { eventually } from '../support/eventually'
import { bearer } from '../support/fixtures'

const api = useAdminApp()
let operator: string
beforeAll(async () => {
  api.clock.set('2026-11-26T08:00:00Z')
  operator = (await api.operator()).token
})

const call = (path: string, options: Parameters<typeof api.call>[1] = {}) =>
  api.call(path, { cookie: operator, ...options })
const json = async (response: Response) => ({ status: response.status, body: await response.json() })
const invalid = (message: string) => ({
  status: 400,
  body: { error: { status: 400, code: 'invalid_parameter', message } },
})

describe('POST /api/accounts', () => {
  test('creates a member or an operator, who can then log in', async () => {
    const created = await json(
      await call('/api/accounts', {
        body: { username: 'Ada.Member', password: 'a long password', role: 'member', membership: 'lapsed' },
      }),
    )
    expect(created).toEqual({
      status: 201,
      body: {
        data: {
          id: expect.any(Number),
          username: 'Ada.Member',
          role: 'member',
          membership: 'lapsed',
          created_at: expect.any(String),
          disabled: false,
          disabled_at: null,
        },
      },
    })
    const login = await api.call('/api/auth/login', { body: { username: 'ada.member', password: 'a long password' } })
    expect((await login.json()).data.user).toEqual({
      id: created.body.data.id,
      username: 'Ada.Member',
      role: 'member',
      membership: 'lapsed',
    })
    const op = await json(
      await call('/api/accounts', {
        body: { username: 'second-operator', password: 'a long password', role: 'admin' },
      }),
    )
    expect(op.body.data).toMatchObject({ role: 'admin', membership: 'active' })
  })

  test('a username taken in any letter case is a 409', async () => {
    await call('/api/accounts', { body: { username: 'taken-name', password: 'a long password', role: 'member' } })
    expect(
      await json(
        await call('/api/accounts', { body: { username: 'TAKEN-name', password: 'another password', role: 'member' } }),
      ),
    ).toEqual({
      status: 409,
      body: { error: { status: 409, code: 'conflict', message: 'an account named "TAKEN-name" already exists' } },
    })
  })

  test.each([
    [{ password: 'a long password', role: 'member' }, 'missing field "username"'],
    [{ username: 'ab', password: 'a long password', role: 'member' }, 'username must be at least 3 characters long'],
    [
      { username: 'has space', password: 'a long password', role: 'member' },
      'username must be letters, digits, ".", "_" or "-" (got "has space")',
    ],
    [{ username: 'short-pw', password: 'short', role: 'member' }, 'password must be at least 10 characters long'],
    [
      { username: 'bad-role', password: 'a long password', role: 'root' },
      'role must be one of admin, member (got "root")',
    ],
    [
      { username: 'bad-ms', password: 'a long password', role: 'member', membership: 'gold' },
      'membership must be one of active, lapsed (got "gold")',
    ],
    [
      { username: 'extra', password: 'a long password', role: 'member', email: 'x@y.z' },
      'unknown field "email"; this endpoint takes username, password, role, membership',
    ],
  ])('refuses %p', async (body, message) => {
    expect(await json(await call('/api/accounts', { body }))).toEqual(invalid(message))
  })
})

describe('GET /api/accounts', () => {
  test('lists accounts in id order, filtered and paged', async () => {
    for (const n of [1, 2, 3])
      await call('/api/accounts', { body: { username: `paged-${n}`, password: 'a long password', role: 'member' } })
    const all = await json(await call('/api/accounts?limit=100'))
    const ids = all.body.data.map((a: { id: number }) => a.id)
    expect(ids).toEqual([...ids].sort((x: number, y: number) => x - y))
    const members = (await json(await call('/api/accounts?role=member&membership=active&limit=2'))).body
    expect(members.data).toHaveLength(2)
    expect(members.data.every((a: { role: string }) => a.role === 'member')).toBe(true)
    expect(members.pagination).toMatchObject({ has_more: true, limit: 2 })
    const next = (
      await json(
        await call(`/api/accounts?role=member&membership=active&limit=2&cursor=${members.pagination.next_cursor}`),
      )
    ).body
    expect(next.data[0].id).toBeGreaterThan(members.data[1].id)
    expect((await json(await call(`/api/accounts?role=admin&cursor=${members.pagination.next_cursor}`))).status).toBe(
      400,
    )
  })

  test.each([
    ['/api/accounts?role=root', 'role has unknown value "root"; allowed: admin, member'],
    ['/api/accounts?page=2', 'unknown parameter "page"; this endpoint takes role, membership, cursor, limit'],
    ['/api/accounts?limit=0', 'limit must be an integer from 1 to 100 (got "0")'],
  ])('refuses %s', async (path, message) => {
    expect(await json(await call(path))).toEqual(invalid(message))
  })
})

describe('/api/accounts/{id}', () => {
  test('reads one account, sets its membership, and the Data API follows', async () => {
    const created = (
      await json(
        await call('/api/accounts', { body: { username: 'renewing', password: 'a long password', role: 'member' } }),
      )
    ).body.data
    expect((await json(await call(`/api/accounts/${created.id}`))).body.data).toEqual(created)
    const key = (await json(await call(`/api/accounts/${created.id}/keys`, { body: { tier: 'member', label: 'lab' } })))
      .body.data
    const v1 = () => api.app.handle(new Request('https://geroscope.test/api/v1/topics', bearer(key.key)))
    expect((await v1()).status).toBe(200)
    const lapsed = await json(
      await call(`/api/accounts/${created.id}`, { method: 'PATCH', body: { membership: 'lapsed' } }),
    )
    expect(lapsed).toEqual({ status: 200, body: { data: { ...created, membership: 'lapsed' } } })
    // Key caches empty on a change notification, which PostgreSQL delivers a moment after the commit.
    expect(await eventually(async () => (await v1()).status === 403)).toBe(true)
    expect(
      (await json(await call(`/api/accounts/${created.id}`, { method: 'PATCH', body: { membership: 'active' } })))
        .status,
    ).toBe(200)
    expect(await eventually(async () => (await v1()).status === 200)).toBe(true)
  })

  test.each([
    ['GET', '/api/accounts/999999', undefined, 404, 'no account with id 999999'],
    ['GET', '/api/accounts/abc', undefined, 400, 'id must be a positive integer (got "abc")'],
    ['GET', '/api/accounts/0', undefined, 400, 'id must be a positive integer (got "0")'],
    ['PATCH', '/api/accounts/999999', { membership: 'lapsed' }, 404, 'no account with id 999999'],
    ['PATCH', '/api/accounts/1', {}, 400, 'missing field "membership"'],
    [
      'PATCH',
      '/api/accounts/1',
      { membership: 'lapsed', role: 'admin' },
      400,
      'unknown field "role"; this endpoint takes membership',
    ],
    ['GET', '/api/accounts/999999/keys', undefined, 404, 'no account with id 999999'],
    ['POST', '/api/accounts/999999/keys', {}, 404, 'no account with id 999999'],
    ['POST', '/api/accounts/1/keys', { tier: 'gold' }, 400, 'tier must be one of member, pro (got "gold")'],
  ])('%s %s: %d', async (method, path, body, status, message) => {
    const response = await json(await call(path, { method, body }))
    expect(response).toEqual({
      status,
      body: { error: { status, code: status === 404 ? 'not_found' : 'invalid_parameter', message } },
    })
  })
})

describe('/api/accounts/{id}/keys', () => {
  test('creates pro keys by default, lists them; revocation through /api/keys/{id}', async () => {
    const created = (
      await json(
        await call('/api/accounts', {
          body: { username: 'pro-user', password: 'a long password', role: 'member', membership: 'lapsed' },
        }),
      )
    ).body.data
    const made = await json(await call(`/api/accounts/${created.id}/keys`, { method: 'POST' }))
    expect(made.status).toBe(201)
    expect(made.body.data).toMatchObject({ tier: 'pro', label: null, revoked: false })
    // A pro key needs no membership.
    expect(
      (await api.app.handle(new Request('https://geroscope.test/api/v1/topics', bearer(made.body.data.key)))).status,
    ).toBe(200)
    const list = await json(await call(`/api/accounts/${created.id}/keys`))
    const { key: _, ...listed } = made.body.data
    expect(list).toEqual({ status: 200, body: { data: [listed] } })
    expect((await call(`/api/keys/${listed.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await json(await call(`/api/accounts/${created.id}/keys`))).body.data[0].revoked).toBe(true)
  })
})
