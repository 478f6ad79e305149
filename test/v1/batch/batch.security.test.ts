import { describe, expect, test } from 'bun:test'
import { req, useTestApp } from '../../support/app'
import { createTestKey } from '../../support/fixtures'

const api = useTestApp()

const post = (key: string | null, ids: string[]) => api.app.handle(req('/api/v1/papers/batch', {
  method: 'POST', headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json' }, body: JSON.stringify({ ids }),
}))
const ids = (n: number) => Array.from({ length: n }, (_, i) => `MED-${i + 1}`)

describe('batch lookups and the rate limit', () => {
  test('need a key, like every /api/v1 request', async () => {
    const response = await post(null, ['MED-1'])
    expect(response.status).toBe(401)
    expect((await response.json()).error.code).toBe('missing_key')
  })

  test('each started 100 ids count as one request', async () => {
    const { key } = await createTestKey(api.database.db, { tier: 'member' })
    const used = async (n: number) => (await post(key, ids(n))).headers.get('x-ratelimit-used')
    expect(await used(100)).toBe('1')
    expect(await used(101)).toBe('3')
    expect(await used(500)).toBe('8')
    const get = await api.app.handle(req(`/api/v1/papers?ids=${ids(100).join(',')}`, { headers: { authorization: `Bearer ${key}` } }))
    expect(get.headers.get('x-ratelimit-used')).toBe('9')
  })

  test('a batch larger than what is left of the minute is a 429 with Retry-After', async () => {
    const { key } = await createTestKey(api.database.db, { tier: 'member' })
    for (let i = 0; i < 11; i++) expect((await post(key, ids(500))).status).toBe(200) // 55 of 60
    expect((await post(key, ids(100))).status).toBe(200) // 56: the next 500 fit in the gate, not in the minute
    const refused = await post(key, ids(500))
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).not.toBeNull()
    expect((await refused.json()).error.message).toContain('a batch of 500 ids counts as 5 requests (one per 100 ids)')
  })

  test('malformed ids cost one request, not the whole batch', async () => {
    const { key } = await createTestKey(api.database.db, { tier: 'member' })
    const response = await post(key, [...ids(499), 'bogus'])
    expect(response.status).toBe(400)
    expect(response.headers.get('x-ratelimit-used')).toBe('1')
  })

  test('ids are parameters, never SQL', async () => {
    const response = await post(api.key, ["doi:10.1000/x');drop/**/table/**/papers;--"])
    expect(response.status).toBe(200)
    expect((await response.json()).not_found).toHaveLength(1)
  })
})
