import { beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { accounts, apiKeys } from '../../../src/db/schema'
import { eventually } from '../../support/eventually'
import { req, useTestApp } from '../../support/app'
import { createTestKey, insertPapers, paperRow } from '../../support/fixtures'

const api = useTestApp()

beforeAll(async () => {
  await insertPapers(api.database.db, [paperRow({ id: 'MED-1' })])
})

const call = (headers: Record<string, string>, path = '/api/v1/papers') => api.app.handle(req(path, { headers }))

async function expectAuthError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status)
  const body = await response.json()
  expect(body.error).toMatchObject({ status, code })
  // Auth failures carry no rate-limit headers (docs/contract-decisions.md), but always a request id.
  expect(response.headers.get('x-ratelimit-limit')).toBeNull()
  expect(response.headers.get('x-request-id')).not.toBeNull()
  expect(response.headers.get('cache-control')).toBe('no-store')
}

describe('API keys on /api/v1', () => {
  test.each([
    ['no Authorization header', {}],
    ['a Basic header', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a Bearer header without a key', { authorization: 'Bearer ' }],
  ])('%s is 401 missing_key', async (_name, headers) => {
    await expectAuthError(await call(headers), 401, 'missing_key')
  })

  test.each([
    ['a malformed key', 'Bearer not-a-key'],
    ['a key of the right shape that does not exist', 'Bearer grk_AAAAAAAA_0123456789abcdefghijABCDEFGHIJ'],
    ['an SQL injection attempt', "Bearer grk_' or 1=1 --"],
  ])('%s is 401 invalid_key', async (_name, authorization) => {
    await expectAuthError(await call({ authorization }), 401, 'invalid_key')
  })

  test('a real key id with a wrong secret is 401 invalid_key', async () => {
    const { keyId } = await createTestKey(api.database.db)
    await expectAuthError(await call({ authorization: `Bearer grk_${keyId}_${'x'.repeat(32)}` }), 401, 'invalid_key')
  })

  test('a revoked key is 401 revoked_key', async () => {
    const { key } = await createTestKey(api.database.db, { revoked: true })
    await expectAuthError(await call({ authorization: `Bearer ${key}` }), 401, 'revoked_key')
  })

  test("a member key whose owner lapsed is 403 plan_required; a pro key or an admin's member key is not", async () => {
    const lapsed = await createTestKey(api.database.db, { tier: 'member', membership: 'lapsed' })
    await expectAuthError(await call({ authorization: `Bearer ${lapsed.key}` }), 403, 'plan_required')
    const pro = await createTestKey(api.database.db, { tier: 'pro', membership: 'lapsed' })
    expect((await call({ authorization: `Bearer ${pro.key}` })).status).toBe(200)
    const admin = await createTestKey(api.database.db, { tier: 'member', membership: 'lapsed', role: 'admin' })
    expect((await call({ authorization: `Bearer ${admin.key}` })).status).toBe(200)
  })

  test('a membership change reaches a cached key at once, not after the cache lifetime', async () => {
    const member = await createTestKey(api.database.db, { tier: 'member' })
    expect((await call({ authorization: `Bearer ${member.key}` })).status).toBe(200)
    await api.database.db.update(accounts).set({ membership: 'lapsed' }).where(eq(accounts.id, member.accountId))
    // The change notification empties the key cache; KEY_CACHE_TTL_MS (30 s) is far beyond this wait.
    expect(await eventually(async () => (await call({ authorization: `Bearer ${member.key}` })).status === 403)).toBe(
      true,
    )
  })

  test('a revocation reaches a cached key at once', async () => {
    const { key, keyId } = await createTestKey(api.database.db, { tier: 'pro' })
    expect((await call({ authorization: `Bearer ${key}` })).status).toBe(200)
    await api.database.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, keyId))
    expect(await eventually(async () => (await call({ authorization: `Bearer ${key}` })).status === 401)).toBe(true)
  })

  test('a valid key gets the rate-limit headers, on errors too', async () => {
    const { key } = await createTestKey(api.database.db, { tier: 'member' })
    const ok = await call({ authorization: `Bearer ${key}` })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('x-ratelimit-limit')).toBe('1000')
    expect(ok.headers.get('x-ratelimit-used')).toBe('1')
    expect(ok.headers.get('x-ratelimit-minute-limit')).toBe('60')
    const missing = await call({ authorization: `Bearer ${key}` }, '/api/v1/no-such-thing')
    expect(missing.status).toBe(404)
    expect((await missing.json()).error.code).toBe('not_found')
    expect(missing.headers.get('x-ratelimit-used')).toBe('2')
  })

  test('the scheme name is case-insensitive', async () => {
    const { key } = await createTestKey(api.database.db)
    expect((await call({ authorization: `bearer ${key}` })).status).toBe(200)
  })
})
