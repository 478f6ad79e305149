import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { apiKeys } from '../../src/db/schema'
import { KeyUsageRecorder } from '../../src/accounts/key-last-used'
import { useAdminApp } from '../support/admin'
import { eventually } from '../support/eventually'
import { bearer } from '../support/fixtures'

let usage: KeyUsageRecorder
const api = useAdminApp({}, (database) => ({ keyUsage: (usage = new KeyUsageRecorder(database, { flushEveryMs: 0 })) }))

const KEY = /^grk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/
const v1 = (key: string) => api.app.handle(new Request('https://geroscope.test/api/v1/topics', bearer(key)))

async function createKey(token: string, body: unknown = { label: 'laptop' }) {
  const response = await api.call('/api/keys', { cookie: token, body })
  return { status: response.status, body: await response.json() }
}

describe('POST /api/keys', () => {
  test('creates a member key for the caller and shows the plain key once', async () => {
    const member = await api.member()
    const { status, body } = await createKey(member.token)
    expect(status).toBe(201)
    expect(body.data).toEqual({
      id: body.data.key.slice(4, 12),
      label: 'laptop',
      tier: 'member',
      created_at: expect.any(String),
      last_used_at: null,
      revoked: false,
      revoked_at: null,
      key: expect.stringMatching(KEY),
    })
    expect((await v1(body.data.key)).status).toBe(200)
    const list = await (await api.call('/api/keys', { cookie: member.token })).json()
    expect(list.data).toEqual([{ ...body.data, key: undefined }].map(({ key: _, ...rest }) => rest))
    expect(JSON.stringify(list)).not.toContain(body.data.key.slice(13))
  })

  test('a label is optional; a bare POST works', async () => {
    const member = await api.member()
    const response = await api.call('/api/keys', { method: 'POST', cookie: member.token })
    expect(response.status).toBe(201)
    expect((await response.json()).data.label).toBeNull()
  })

  test('needs an active membership (403), unless the caller is an operator', async () => {
    const lapsed = await api.member('lapsed')
    const { status, body } = await createKey(lapsed.token)
    expect(status).toBe(403)
    expect(body).toEqual({
      error: {
        status: 403,
        code: 'forbidden',
        message: 'creating API keys needs an active membership; renew it first',
      },
    })
    expect((await createKey((await api.operator()).token)).status).toBe(201)
  })

  test('allows 10 active keys per account (409 after), and a revoked one frees its place', async () => {
    const member = await api.member()
    const ids: string[] = []
    for (let i = 0; i < 10; i++) ids.push((await createKey(member.token)).body.data.id)
    const refused = await createKey(member.token)
    expect(refused).toEqual({
      status: 409,
      body: {
        error: { status: 409, code: 'conflict', message: 'the account already has 10 active keys; revoke one first' },
      },
    })
    expect((await api.call(`/api/keys/${ids[0]}`, { method: 'DELETE', cookie: member.token })).status).toBe(200)
    expect((await createKey(member.token)).status).toBe(201)
  })

  test('20 creations at once make exactly 10 keys; the rest are 409 (the cap is kept in the database)', async () => {
    const member = await api.member()
    const answers = await Promise.all(Array.from({ length: 20 }, () => createKey(member.token)))
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10)
    expect(answers.filter((a) => a.status === 409)).toHaveLength(10)
    const operator = await api.operator()
    const more = await Promise.all(
      Array.from({ length: 5 }, () =>
        api.call(`/api/accounts/${member.id}/keys`, { cookie: operator.token, body: {} }),
      ),
    )
    expect(more.map((r) => r.status)).toEqual([409, 409, 409, 409, 409])
    const active = await api.database.db.select().from(apiKeys).where(eq(apiKeys.accountId, member.id))
    expect(active).toHaveLength(10)
  })

  test.each([
    [{ label: '' }, 'label must not be empty'],
    [{ label: 'x'.repeat(101) }, 'label must be at most 100 characters long (got 101)'],
    [{ label: 7 }, 'label must be a string (got number)'],
    [{ tier: 'pro' }, 'unknown field "tier"; this endpoint takes label'],
  ])('refuses %p', async (body, message) => {
    const member = await api.member()
    expect(await createKey(member.token, body)).toEqual({
      status: 400,
      body: { error: { status: 400, code: 'invalid_parameter', message } },
    })
  })
})

describe('DELETE /api/keys/{id}', () => {
  test("revokes the caller's key; the Data API refuses it at once; revoking again answers the same", async () => {
    const member = await api.member()
    const { body } = await createKey(member.token)
    expect((await v1(body.data.key)).status).toBe(200)
    const response = await api.call(`/api/keys/${body.data.id}`, { method: 'DELETE', cookie: member.token })
    expect(response.status).toBe(200)
    const revoked = (await response.json()).data
    const revokedAt = revoked.revoked_at
    expect(revoked).toMatchObject({ id: body.data.id, revoked: true })
    expect(Date.parse(revokedAt)).toBeGreaterThan(0)
    expect(await eventually(async () => (await v1(body.data.key)).status === 401)).toBe(true)
    expect((await (await v1(body.data.key)).json()).error.code).toBe('revoked_key')
    const again = await api.call(`/api/keys/${body.data.id}`, { method: 'DELETE', cookie: member.token })
    expect((await again.json()).data.revoked_at).toBe(revokedAt)
  })

  test("a member cannot revoke another account's key: the same 404 as no key", async () => {
    const owner = await api.member()
    const other = await api.member()
    const { body } = await createKey(owner.token)
    for (const id of [body.data.id, 'Zz000000']) {
      const response = await api.call(`/api/keys/${id}`, { method: 'DELETE', cookie: other.token })
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({
        error: { status: 404, code: 'not_found', message: `no key with id "${id}"` },
      })
    }
    expect((await v1(body.data.key)).status).toBe(200)
  })

  test('an operator revokes any key', async () => {
    const owner = await api.member()
    const { body } = await createKey(owner.token)
    const operator = await api.operator()
    expect((await api.call(`/api/keys/${body.data.id}`, { method: 'DELETE', cookie: operator.token })).status).toBe(200)
    expect(await eventually(async () => (await v1(body.data.key)).status === 401)).toBe(true)
  })

  test('a malformed id is a 400', async () => {
    const member = await api.member()
    const response = await api.call('/api/keys/nope', { method: 'DELETE', cookie: member.token })
    expect(response.status).toBe(400)
    expect((await response.json()).error.message).toBe('a key id is the 8 letters and digits after "grk_"')
  })
})

describe('api_keys.last_used_at', () => {
  test('is written in one batch when the recorder flushes, not per request, and shown in the list', async () => {
    api.clock.set('2026-11-25T09:00:00Z')
    const member = await api.member()
    const first = (await createKey(member.token)).body.data
    const second = (await createKey(member.token)).body.data
    for (let i = 0; i < 3; i++) expect((await v1(first.key)).status).toBe(200)
    api.clock.set('2026-11-25T09:00:05Z')
    expect((await v1(second.key)).status).toBe(200)
    const stored = async (id: string) =>
      (await api.database.db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, id)))[0].at
    expect(await stored(first.id)).toBeNull() // four requests, no write yet
    await usage.flush()
    expect(await stored(first.id)).toEqual(new Date('2026-11-25T09:00:00Z'))
    expect(await stored(second.id)).toEqual(new Date('2026-11-25T09:00:05Z'))
    usage.touch(second.id, new Date('2026-11-25T09:00:01Z')) // an older time, noted by another instance, never moves it back
    await usage.flush()
    expect(await stored(second.id)).toEqual(new Date('2026-11-25T09:00:05Z'))
    const list = (await (await api.call('/api/keys', { cookie: member.token })).json()).data
    expect(list.map((k: { last_used_at: string }) => k.last_used_at)).toEqual([
      '2026-11-25T09:00:00.000Z',
      '2026-11-25T09:00:05.000Z',
    ])
  })
})
