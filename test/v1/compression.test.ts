import { beforeAll, describe, expect, test } from 'bun:test'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { papers } from '../../src/db/schema'
import { eq } from 'drizzle-orm'
import { req, testApp, useTestApp } from '../support/app'
import { insertPapers, paperRow } from '../support/fixtures'

// With the response cache (the default) and without it: the validators must hold either way.
const cached = useTestApp()
const uncached = useTestApp(() => ({ responseCache: null }))

const get = (api: typeof cached, path: string, headers: Record<string, string> = {}) =>
  api.app.handle(req(path, { headers: { authorization: `Bearer ${api.key}`, ...headers } }))

beforeAll(async () => {
  for (const api of [cached, uncached]) {
    await insertPapers(
      api.database.db,
      Array.from({ length: 20 }, (_, i) => paperRow({ id: `MED-${700 + i}` })),
    )
  }
})

describe.each([
  ['with the response cache', cached],
  ['without it', uncached],
] as const)('compression %s', (_name, api) => {
  test('gzip and br bodies decode to the identity body, with Vary: Accept-Encoding', async () => {
    const plain = await get(api, '/api/v1/papers')
    const identity = Buffer.from(await plain.arrayBuffer())
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(plain.headers.get('vary')).toBe('Authorization, Accept, Accept-Encoding') // Accept: the list answers CSV too
    const gz = await get(api, '/api/v1/papers', { 'accept-encoding': 'gzip' })
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    const gzBody = Buffer.from(await gz.arrayBuffer())
    expect(gunzipSync(gzBody)).toEqual(identity)
    const br = await get(api, '/api/v1/papers', { 'accept-encoding': 'gzip, br' })
    expect(br.headers.get('content-encoding')).toBe('br')
    const brBody = Buffer.from(await br.arrayBuffer())
    expect(brotliDecompressSync(brBody)).toEqual(identity)
    expect(brBody.byteLength).toBeLessThan(identity.byteLength / 3)
    expect(br.headers.get('etag')).toBe(plain.headers.get('etag')) // weak: one ETag for every encoding
    expect(br.headers.get('x-ratelimit-remaining')).not.toBeNull()
  })

  test('a small answer goes uncompressed', async () => {
    const response = await get(api, '/api/v1/papers?ids=MED-1', { 'accept-encoding': 'gzip' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-encoding')).toBeNull()
    expect(response.headers.get('etag')).toStartWith('W/"')
  })

  test('If-None-Match with the ETag of a list page or a paper is a 304 with no body, keeping the rate-limit headers', async () => {
    for (const path of [
      '/api/v1/papers',
      '/api/v1/papers/MED-700',
      '/api/v1/stories',
      '/api/v1/claims',
      '/api/v1/entities',
    ]) {
      const first = await get(api, path)
      const etag = first.headers.get('etag')!
      expect(etag).toMatch(/^W\/"[\w-]+"$/)
      const again = await get(api, path, { 'if-none-match': etag, 'accept-encoding': 'br' })
      expect({ path, status: again.status }).toEqual({ path, status: 304 })
      expect(await again.text()).toBe('')
      expect(again.headers.get('etag')).toBe(etag)
      expect(again.headers.get('x-ratelimit-used')).not.toBeNull()
      expect(again.headers.get('cache-control')).toBe('private, max-age=60')
      expect(again.headers.get('access-control-expose-headers')).toContain('ETag')
    }
  })

  test('another ETag, or another page, is answered in full', async () => {
    const first = await get(api, '/api/v1/papers?limit=1')
    const other = await get(api, '/api/v1/papers?limit=2', { 'if-none-match': first.headers.get('etag')! })
    expect(other.status).toBe(200)
    expect(other.headers.get('etag')).not.toBe(first.headers.get('etag'))
    expect((await get(api, '/api/v1/papers?limit=1', { 'if-none-match': 'W/"stale"' })).status).toBe(200)
  })

  test('errors carry no ETag and are never a 304', async () => {
    const response = await get(api, '/api/v1/papers/MED-404', { 'if-none-match': '*', 'accept-encoding': 'gzip' })
    expect(response.status).toBe(404)
    expect(response.headers.get('etag')).toBeNull()
    expect(response.headers.get('content-encoding')).toBeNull()
  })

  test('a batch answer by POST is compressed but has no ETag', async () => {
    const response = await api.app.handle(
      req('/api/v1/papers/batch', {
        method: 'POST',
        headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json', 'accept-encoding': 'gzip' },
        body: JSON.stringify({ ids: ['MED-700', 'MED-701', 'MED-702'] }),
      }),
    )
    expect(response.headers.get('content-encoding')).toBe('gzip')
    expect(response.headers.get('etag')).toBeNull()
    expect(JSON.parse(gunzipSync(Buffer.from(await response.arrayBuffer())).toString()).data).toHaveLength(3)
  })
})

describe('ETags follow the data', () => {
  test('a changed paper has a new ETag, so a client revalidating gets the new answer', async () => {
    const app = await testApp(uncached.database, { responseCache: null })
    const ask = (headers: Record<string, string> = {}) =>
      app.handle(req('/api/v1/papers/MED-701', { headers: { authorization: `Bearer ${uncached.key}`, ...headers } }))
    const before = (await ask()).headers.get('etag')!
    await uncached.database.db.update(papers).set({ title: 'A new title' }).where(eq(papers.id, 'MED-701'))
    const after = await ask({ 'if-none-match': before })
    expect(after.status).toBe(200)
    expect((await after.json()).data.title).toBe('A new title')
  })
})
