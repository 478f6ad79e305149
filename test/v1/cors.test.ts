import { describe, expect, test } from 'bun:test'
import { req, useTestApp } from '../support/app'
import { bearer, createTestKey } from '../support/fixtures'

const api = useTestApp()

describe('CORS on /api/v1', () => {
  test('a preflight is answered without a key', async () => {
    const response = await api.app.handle(
      req('/api/v1/papers', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      }),
    )
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-headers')).toContain('Authorization')
    expect(response.headers.get('access-control-allow-methods')).toContain('GET')
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  test('responses allow any origin and expose the rate-limit headers, Retry-After and X-Request-Id', async () => {
    const { key } = await createTestKey(api.database.db)
    for (const init of [
      { headers: { ...bearer(key).headers, origin: 'https://app.example' } },
      { headers: { origin: 'https://app.example' } },
    ]) {
      const response = await api.app.handle(req('/api/v1/papers', init))
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      const exposed = response.headers.get('access-control-expose-headers')!.toLowerCase()
      for (const name of [
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
        'x-ratelimit-used',
        'x-ratelimit-minute-limit',
        'x-ratelimit-minute-remaining',
        'x-ratelimit-minute-reset',
        'retry-after',
        'x-request-id',
      ]) {
        expect(exposed).toContain(name)
      }
      expect(response.headers.get('access-control-allow-credentials')).toBeNull()
    }
  })
})
