/**
 * Slow request bodies over real sockets: a body that does not arrive in full within BODY_TIMEOUT_MS
 * of its request's head is a 408 in the envelope and its connection is closed, and one client
 * address holds at most MAX_CLIENT_CONNECTIONS requests in progress (429 with Retry-After beyond).
 * The deadline is short here so the tests are quick; the default is 30 s.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { connect, type Socket } from 'node:net'
import { parseConfig } from '../../src/config'
import { ClientConnections } from '../../src/http/client-connections'
import { serve, type RunningServer } from '../../src/platform/serve'
import { testApp } from '../support/app'
import { freshDatabase, type TestDatabase } from '../support/database'
import { createTestKey } from '../support/fixtures'

const ENV = { BODY_TIMEOUT_MS: '1500', MAX_CLIENT_CONNECTIONS: '3' }
/** How long a test waits for an answer before calling it none: well past the deadline, far below 150 s. */
const PATIENCE_MS = 8_000

let database: TestDatabase
let server: RunningServer
let perClient: ClientConnections
let key: string

beforeAll(async () => {
  database = await freshDatabase()
  key = (await createTestKey(database.db, { tier: 'pro' })).key
  const app = await testApp(database, {}, ENV)
  perClient = new ClientConnections(parseConfig(ENV))
  server = serve(perClient.track(app.fetch), 0)
})
afterAll(async () => {
  await server?.stop(true)
  await database?.close()
})

type RawAnswer = { status: number; headers: Map<string, string>; body: string; closedAfterMs: number | null }

/**
 * Sends a request head declaring a body of `declared` bytes and then only `sent` of them (in
 * pieces every `pieceEveryMs`), and collects the answer until the server closes the connection or
 * PATIENCE_MS passes (status 0: no answer).
 */
type SlowBody = { declared: number; sent?: string; pieceEveryMs?: number; headers?: string[] }

function slowRequest(path: string, options: SlowBody) {
  return new Promise<RawAnswer>((resolve, reject) => {
    const started = performance.now()
    const chunks: Buffer[] = []
    let finished = false
    const finish = (closed: boolean) => {
      if (finished) return
      finished = true
      clearTimeout(patience)
      socket.destroy()
      const text = Buffer.concat(chunks).toString('utf8')
      const [head, ...rest] = text.split('\r\n\r\n')
      const [statusLine, ...lines] = head.split('\r\n')
      const field = (l: string) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]
      const headers = new Map(lines.map((l) => field(l) as [string, string]))
      resolve({
        status: Number(statusLine.split(' ')[1] ?? 0) || 0,
        headers,
        body: rest.join('\r\n\r\n'),
        closedAfterMs: closed ? performance.now() - started : null,
      })
    }
    const socket: Socket = connect(server.port, '127.0.0.1', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
          `${(options.headers ?? []).map((h) => `${h}\r\n`).join('')}Content-Length: ${options.declared}\r\n\r\n`,
      )
      const pieces = [...(options.sent ?? '')]
      const every = options.pieceEveryMs ?? 0
      const next = () => {
        if (pieces.length === 0 || finished) return
        socket.write(pieces.splice(0, Math.max(1, Math.ceil(pieces.length / 4))).join(''))
        if (every) setTimeout(next, every)
        else next()
      }
      next()
    })
    const patience = setTimeout(() => finish(false), PATIENCE_MS)
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => finish(true))
  })
}

const envelope = (status: number, code: string, message: string) => ({ error: { status, code, message } })
const bearer = () => `Authorization: Bearer ${key}`
const stats = () =>
  fetch(`http://127.0.0.1:${server.port}/api/v1/stats`, { headers: { authorization: `Bearer ${key}` } })

describe('request bodies have a deadline', () => {
  test('a declared 1 MB body that never arrives is a 408 in the envelope, and its connection is closed', async () => {
    const answer = await slowRequest('/api/v1/papers/batch', { declared: 1_000_000, headers: [bearer()] })
    expect(answer.status).toBe(408)
    expect(JSON.parse(answer.body)).toEqual(
      envelope(408, 'invalid_parameter', 'the body did not arrive in full within 1.5 seconds'),
    )
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(answer.headers.get('access-control-allow-origin')).toBe('*')
    expect(answer.closedAfterMs).not.toBeNull()
  })

  test('so is a body cut off halfway, on the admin interface too', async () => {
    const answer = await slowRequest('/api/auth/login', { declared: 200, sent: '{"username":"admin",' })
    expect(answer.status).toBe(408)
    expect(JSON.parse(answer.body).error.code).toBe('invalid_parameter')
    expect(answer.closedAfterMs).not.toBeNull()
  })

  test('a body that arrives slowly but in time is read as usual', async () => {
    const body = JSON.stringify({ ids: ['MED-1', 'MED-2'] })
    const answer = await slowRequest('/api/v1/papers/batch', {
      declared: Buffer.byteLength(body),
      sent: body,
      pieceEveryMs: 100,
      headers: [bearer(), 'Connection: close'],
    })
    expect(answer.status).toBe(200)
  })
})

describe('one client address has a bounded number of requests in progress', () => {
  test('beyond MAX_CLIENT_CONNECTIONS a request is a 429 with Retry-After, served once the others end', async () => {
    const stall = () => slowRequest('/api/v1/papers/batch', { declared: 1000, headers: [bearer()] })
    const stalled = [stall(), stall(), stall()]
    for (let waited = 0; perClient.inProgress('127.0.0.1') < 3 && waited < PATIENCE_MS; waited += 20) {
      await Bun.sleep(20)
    }
    expect(perClient.inProgress('127.0.0.1')).toBe(3)

    const refused = await stats()
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(refused.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(await refused.json()).toEqual(
      envelope(
        429,
        'rate_limited',
        'this client address already has 3 requests in progress, the most allowed at once; retry when one is answered',
      ),
    )

    expect((await Promise.all(stalled)).map((a) => a.status)).toEqual([408, 408, 408])
    expect(perClient.inProgress('127.0.0.1')).toBe(0)
    const served = await stats()
    expect(served.status).toBe(200)
  })
})
