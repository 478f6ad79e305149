import { describe, expect, test } from 'bun:test'
import { req, useTestApp } from '../../support/app'
import { createTestKey } from '../../support/fixtures'

const api = useTestApp()

const post = (key: string | null, ids: string[]) =>
  api.app.handle(
    req('/api/v1/papers/batch', {
      method: 'POST',
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json' },
      body: JSON.stringify({ ids }),
    }),
  )
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
    const get = await api.app.handle(
      req(`/api/v1/papers?ids=${ids(100).join(',')}`, { headers: { authorization: `Bearer ${key}` } }),
    )
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

  test("a batch refused with 429 uses no allowance, the gate's unit included", async () => {
    const { key } = await createTestKey(api.database.db, { tier: 'member' })
    for (let i = 0; i < 11; i++) expect((await post(key, ids(500))).status).toBe(200) // 55 of 60
    for (let i = 0; i < 3; i++) expect((await post(key, ids(100))).status).toBe(200) // 58: 2 left
    const refused = await post(key, ids(500))
    expect(refused.status).toBe(429)
    expect(refused.headers.get('x-ratelimit-used')).toBe('58')
    expect(refused.headers.get('x-ratelimit-minute-remaining')).toBe('2')
    const next = await post(key, ids(200)) // the 2 left are still there
    expect(next.status).toBe(200)
    expect(next.headers.get('x-ratelimit-used')).toBe('60')
    expect(next.headers.get('x-ratelimit-minute-remaining')).toBe('0')
  })

  test('concurrent batches past the allowance: each is taken whole or refused at no cost', async () => {
    const { key } = await createTestKey(api.database.db, { tier: 'member' })
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(key, ids(500)))) // 100 wanted, 60 in the minute
    const served = answers.filter((r) => r.status === 200).length
    expect(answers.every((r) => r.status === 200 || r.status === 429)).toBe(true)
    expect(served).toBeGreaterThan(0)
    const probe = await post(key, ids(1))
    expect(Number(probe.headers.get('x-ratelimit-used') ?? 60)).toBe(probe.status === 200 ? 5 * served + 1 : 5 * served)
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
