/**
 * Oversized URLs and header fields over a real socket: the runtime's HTTP parser must let them
 * through to the app, which answers with the contract's envelope, a request id and CORS headers.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { MAX_HEADER_BYTES, MAX_HEADER_FIELDS, MAX_URL_BYTES, PARSER_HEAD_BYTES } from '../../src/http/request-limits'
import { serve, type RunningServer } from '../../src/platform/serve'
import { useTestApp } from '../support/app'
import { bearer } from '../support/fixtures'

const api = useTestApp()
let server: RunningServer
let base: string

beforeAll(() => {
  server = serve(api.app.fetch, 0, { maxHeadBytes: PARSER_HEAD_BYTES })
  base = `http://127.0.0.1:${server.port}`
})
afterAll(() => server?.stop())

/** One request written by hand, so nothing between us and the server trims or refuses it. */
function rawRequest(
  target: string,
  headerLines: string[],
): Promise<{ status: number; headers: Map<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write(
        `GET ${target} HTTP/1.1\r\nHost: localhost\r\n${headerLines.map((l) => `${l}\r\n`).join('')}Connection: close\r\n\r\n`,
      )
    })
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const [head, ...rest] = text.split('\r\n\r\n')
      const [statusLine, ...lines] = head.split('\r\n')
      const headers = new Map(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      )
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') })
    })
  })
}

async function expectEnvelope(response: Response, status: number, message: string) {
  expect(response.status).toBe(status)
  expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  expect(response.headers.get('access-control-allow-origin')).toBe('*')
  expect(response.headers.get('cache-control')).toBe('no-store')
  expect(await response.json()).toEqual({
    error: { status, code: 'invalid_parameter', message: expect.stringContaining(message) },
  })
}

describe("oversized requests get the envelope, not the runtime's bare 431", () => {
  const origin = { origin: 'https://app.example' }

  test.each([17_000, 40_000, PARSER_HEAD_BYTES - 2000])('a URL of %d bytes is 414', async (length) => {
    const path = `/api/v1/papers?q=${'a'.repeat(length)}`
    await expectEnvelope(
      await fetch(base + path, { headers: { ...bearer(api.key).headers, ...origin } }),
      414,
      `the URL is ${path.length} bytes long; at most 8 KiB (${MAX_URL_BYTES} bytes) are read`,
    )
  })

  test('a URL just under the limit is read', async () => {
    const path = `/api/v1/papers?q=${'a'.repeat(MAX_URL_BYTES - 100)}`
    const response = await fetch(base + path, bearer(api.key))
    expect(response.status).toBe(400) // q is longer than 500 characters: the parameter's own limit speaks
    expect((await response.json()).error.message).toContain('q must be at most 500 characters')
  })

  test.each([
    ['one header field of 20 KB', [`X-Big: ${'b'.repeat(20_000)}`]],
    ['a 40 KB Authorization', [`Authorization: Bearer ${'k'.repeat(40_000)}`]],
  ])('%s is 431', async (_name, lines) => {
    const response = await rawRequest('/api/v1/papers', ['Origin: https://app.example', ...lines])
    expect(response.status).toBe(431)
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const body = JSON.parse(response.body)
    expect(body.error).toMatchObject({ status: 431, code: 'invalid_parameter' })
    expect(body.error.message).toContain(`at most 16 KiB (${MAX_HEADER_BYTES} bytes) are read`)
  })

  test('too many header fields is 431', async () => {
    const lines = Array.from({ length: 150 }, (_, i) => `X-Field-${i}: ${i}`)
    const response = await rawRequest('/api/v1/papers', lines)
    expect(response.status).toBe(431)
    expect(JSON.parse(response.body).error.message).toContain(`at most ${MAX_HEADER_FIELDS} are read`)
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  test('header fields under the limits are read, and the key still counts', async () => {
    const response = await rawRequest('/api/v1/papers', [
      `Authorization: Bearer ${api.key}`,
      `X-Padding: ${'p'.repeat(MAX_HEADER_BYTES - 1000)}`,
    ])
    expect(response.status).toBe(200)
  })

  test("the caller's own request id comes back on a 414", async () => {
    const response = await fetch(`${base}/api/v1/papers?q=${'a'.repeat(20_000)}`, {
      headers: { 'x-request-id': 'mine-123' },
    })
    expect(response.status).toBe(414)
    expect(response.headers.get('x-request-id')).toBe('mine-123')
  })

  test('a site page with a long URL answers in HTML', async () => {
    const response = await fetch(`${base}/papers/${'x'.repeat(20_000)}`)
    expect(response.status).toBe(414)
    expect(response.headers.get('content-type')).toContain('text/html')
  })

  test("past the parser's own limit, the runtime refuses by itself", async () => {
    const response = await rawRequest(`/api/v1/papers?q=${'a'.repeat(PARSER_HEAD_BYTES + 1000)}`, [])
    expect(response.status).toBe(431)
  })
})

const MAX_BODY_BYTES = 1024 * 1024 // the Data API's body cap
const MAX_ADMIN_BODY_BYTES = 256 * 1024 // the admin interface's

/** A body sent in chunks, with no Content-Length: the framing that skipped the admin cap. */
function chunked(text: string, chunk = 16 * 1024): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text)
  let at = 0
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close()
      controller.enqueue(bytes.slice(at, at + chunk))
      at += chunk
    },
  })
}

describe('one body cap however the body is framed, answered in the envelope', () => {
  const json = { 'content-type': 'application/json', origin: 'https://app.example' }

  test("a Data API body over 1 MiB is a 413 in the envelope, with the request id and CORS, not the runtime's bare 413", async () => {
    const body = JSON.stringify({ ids: ['MED-1'], padding: 'x'.repeat(MAX_BODY_BYTES) })
    const response = await fetch(`${base}/api/v1/papers/batch`, {
      method: 'POST',
      headers: { ...bearer(api.key).headers, ...json },
      body,
    })
    await expectEnvelope(response, 413, `the body must be at most 1024 KiB (${MAX_BODY_BYTES} bytes)`)
  })

  test('an admin body over 256 KiB sent chunked, without Content-Length, is a 413 too', async () => {
    const body = chunked(JSON.stringify({ text: 'x'.repeat(MAX_ADMIN_BODY_BYTES) }))
    const response = await fetch(`${base}/api/prompts/judge`, { method: 'PUT', headers: json, body })
    await expectEnvelope(response, 413, `the body must be at most 256 KiB (${MAX_ADMIN_BODY_BYTES} bytes)`)
  })

  test('in process as well: a chunked admin body over the cap is refused, one under it is read whole', async () => {
    const big = await api.app.handle(
      new Request('http://localhost/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: chunked(JSON.stringify({ username: 'a', password: 'x'.repeat(300_000) })),
      }),
    )
    expect(big.status).toBe(413)
    expect(big.headers.get('x-request-id')).toBeTruthy()
    const small = await api.app.handle(
      new Request('http://localhost/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: chunked(JSON.stringify({ username: 'nobody-here', password: 'y'.repeat(200) }), 64),
      }),
    )
    expect(small.status).toBe(401) // parsed and checked: the body reached the route intact
  })

  test('a chunked Data API body under the cap is read whole', async () => {
    const response = await fetch(`${base}/api/v1/papers/batch`, {
      method: 'POST',
      headers: { ...bearer(api.key).headers, ...json },
      body: chunked(JSON.stringify({ ids: ['MED-1', 'MED-2'] }), 8),
    })
    expect(response.status).toBe(200)
    expect((await response.json()).not_found).toEqual(['MED-1', 'MED-2'])
  })
})
