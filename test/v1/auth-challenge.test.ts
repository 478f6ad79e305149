/** 401 answers say how to authenticate (RFC 9110 section 11.6.1, RFC 6750 section 3). */
import { describe, expect, test } from 'bun:test'
import { req, useTestApp } from '../support/app'
import { bearer, createTestKey } from '../support/fixtures'

const api = useTestApp()
const call = (headers: Record<string, string>, path = '/api/v1/papers') => api.app.handle(req(path, { headers }))

describe('WWW-Authenticate on 401 answers', () => {
  test.each([
    ['no Authorization header', {}],
    ['a Basic header', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a Bearer header without a key', { authorization: 'Bearer ' }],
  ])('%s: the Bearer challenge, without an error (none was tried)', async (_name, headers) => {
    for (const path of ['/api/v1/papers', '/api/v1/no-such-path', '/api/v1']) {
      const response = await call(headers, path)
      expect(response.status).toBe(401)
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="geroscope"')
    }
  })

  test.each([
    ['a malformed key', 'Bearer not-a-key'],
    ['a key of the right shape that does not exist', 'Bearer grk_AAAAAAAA_0123456789abcdefghijABCDEFGHIJ'],
  ])('%s: error="invalid_token"', async (_name, authorization) => {
    const response = await call({ authorization })
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="geroscope", error="invalid_token"')
    expect((await response.json()).error.code).toBe('invalid_key')
  })

  test('a revoked key: error="invalid_token"', async () => {
    const { key } = await createTestKey(api.database.db, { revoked: true })
    const response = await call(bearer(key).headers)
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="geroscope", error="invalid_token"')
  })

  test('answers that are not 401 carry none, and browser code may read it', async () => {
    const { key } = await createTestKey(api.database.db)
    const ok = await call({ ...bearer(key).headers, origin: 'https://app.example' })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('www-authenticate')).toBeNull()
    const lapsed = await createTestKey(api.database.db, { tier: 'member', membership: 'lapsed' })
    expect((await call(bearer(lapsed.key).headers)).headers.get('www-authenticate')).toBeNull() // 403
    const refused = await call({ origin: 'https://app.example' })
    expect(refused.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate')
  })
})
