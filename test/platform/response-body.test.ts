import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { conditionalJson } from '../../src/http/compression'
import { LARGEST_CORKED_BODY, responseBody } from '../../src/platform/response-body'
import { serve, type RunningServer } from '../../src/platform/serve'

const onBun = typeof Bun !== 'undefined'
const bytesOf = (n: number) => new TextEncoder().encode(JSON.stringify({ data: 'x'.repeat(n) }))
const small = bytesOf(2_000)
const large = bytesOf(36_000) // a Data API list page's size
const copy = (bytes: Uint8Array) => Uint8Array.from(bytes)
// fetch asks for gzip and br by default, which would send a few compressed bytes instead
const plain = { 'accept-encoding': 'identity' }

let server: RunningServer
beforeAll(() => {
  // Answers ready only after an await, as the Data API's are after a database round trip; the large
  // answer is the same bytes on every request, as a cached answer is.
  server = serve(async (request) => {
    await new Promise((resolve) => setTimeout(resolve, 1))
    const body = new URL(request.url).pathname === '/large' ? large : small
    return conditionalJson(request, body, { 'x-ratelimit-limit': '50000', 'cache-control': 'private, max-age=60' })!
  }, 0)
})
afterAll(async () => {
  await server.stop()
})

describe('response bodies sent after an await', () => {
  test('a body that fits the cork buffer is given as it is, and keeps its Content-Length', async () => {
    expect(responseBody(small)).toBe(small)
    const response = await fetch(`http://127.0.0.1:${server.port}/small`, { headers: plain })
    expect(response.headers.get('content-length')).toBe(String(small.byteLength))
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(small)
  })

  test('on Bun, a larger body goes as one chunk of a stream (one write with the head), byte for byte the same', async () => {
    expect(large.byteLength).toBeGreaterThan(LARGEST_CORKED_BODY)
    const before = copy(large)
    const given = responseBody(large)
    if (onBun) expect(given).toBeInstanceOf(ReadableStream)
    else expect(given).toBe(large)
    expect(new Uint8Array(await new Response(given).arrayBuffer())).toEqual(before)
    expect(large).toEqual(before) // not detached or changed: the cache hands the same bytes out again
  })

  test('the same large bytes served twice arrive whole, with the head the service set', async () => {
    const expected = copy(large)
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`http://127.0.0.1:${server.port}/large`, { headers: plain })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/json')
      expect(response.headers.get('x-ratelimit-limit')).toBe('50000')
      expect(response.headers.get('etag')).toMatch(/^W\/"/)
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(expected)
    }
  })

  test('a revalidation still gets a bodiless 304', async () => {
    const first = await fetch(`http://127.0.0.1:${server.port}/large`, { headers: plain })
    await first.arrayBuffer()
    const again = await fetch(`http://127.0.0.1:${server.port}/large`, {
      headers: { ...plain, 'if-none-match': first.headers.get('etag')! },
    })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
  })
})
