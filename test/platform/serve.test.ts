import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { clientAddress, parseTrustProxy } from '../../src/platform/client-address'
import { peerAddress } from '../../src/platform/peer-address'
import { RUNTIME_BODY_LIMIT_BYTES, serve, type RunningServer } from '../../src/platform/serve'

let server: RunningServer
let seen: (string | null)[] = []
beforeAll(() => {
  server = serve(async (request) => {
    seen.push(peerAddress(request))
    const path = new URL(request.url).pathname
    if (path === '/slow') await Bun.sleep(11_000)
    if (path === '/body') return new Response(String((await request.arrayBuffer()).byteLength))
    return new Response('ok')
  }, 0)
})
afterAll(async () => {
  await server.stop()
})

describe('serve', () => {
  test("remembers each request's socket peer address", async () => {
    seen = []
    await (await fetch(`http://127.0.0.1:${server.port}/`)).text()
    expect(seen).toHaveLength(1)
    expect(['127.0.0.1', '::ffff:127.0.0.1']).toContain(seen[0]!) // Bun may report the IPv4-mapped form
    expect(clientAddress(seen[0], '6.6.6.6', parseTrustProxy(undefined))).toBe('127.0.0.1')
    expect(peerAddress(new Request('http://localhost/'))).toBeNull()
  })

  test("answers a request that takes longer than Bun's default 10 s idle timeout (operator runs answer when done)", async () => {
    const response = await fetch(`http://127.0.0.1:${server.port}/slow`)
    expect(await response.text()).toBe('ok')
  }, 30_000)

  test('refuses a body over its own backstop (4 MiB) without buffering it; the app answers smaller ones', async () => {
    const small = await fetch(`http://127.0.0.1:${server.port}/body`, { method: 'POST', body: new Uint8Array(1000) })
    expect(await small.text()).toBe('1000')
    const large = await fetch(`http://127.0.0.1:${server.port}/body`, {
      method: 'POST',
      body: new Uint8Array(RUNTIME_BODY_LIMIT_BYTES + 1),
    })
    expect(large.status).toBe(413)
  })
})

describe('serve: failures outside the app', () => {
  test("a body that fails as it is sent, and a handler that throws, get onError's answer", async () => {
    const seen: string[] = []
    const failing = serve(
      (request) => {
        if (new URL(request.url).pathname === '/throws') throw new Error('handler failed')
        return new Response(Bun.file('/nonexistent/geroscope-test-file').slice(0, 10), {
          headers: { 'content-length': '10' },
        })
      },
      0,
      {
        onError: (error) => {
          seen.push((error as Error).message)
          return new Response('{"failed":true}', { status: 500, headers: { 'content-type': 'application/json' } })
        },
      },
    )
    try {
      for (const path of ['/file', '/throws']) {
        const response = await fetch(`http://127.0.0.1:${failing.port}${path}`)
        expect({ path, status: response.status, body: await response.text() }).toEqual({
          path,
          status: 500,
          body: '{"failed":true}',
        })
      }
      expect(seen[0]).toContain('ENOENT')
      expect(seen[1]).toBe('handler failed')
    } finally {
      await failing.stop(true)
    }
  })
})
