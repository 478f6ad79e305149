/**
 * SIGTERM (and SIGINT) during load, on the real service in a child process: it stops accepting,
 * answers every request it had taken (one of them still arriving when the signal came), writes the
 * rate-limit counts and api_keys.last_used_at, closes the database and exits 0.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { sql } from 'drizzle-orm'
import { openConfiguredDatabase } from '../../src/lifecycle/open-database'
import { parseConfig } from '../../src/config'
import { testDriver } from '../support/database'
import { cli, freshServiceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process'

type Outcome =
  | { kind: 'answered'; status: number; sentAt: number }
  | { kind: 'failed'; requestId: string; error: string; at: number }

/**
 * One request on a connection of its own, with a request id of ours. A connection the service had
 * not read from when it closed its listening socket (still in the kernel's queue, or accepted but
 * not yet read) is refused or reset: such a request never reached the service, which is why
 * /readyz turns 503 first. A request is cut only if the service took it (its id is in the log) and
 * the client got no whole answer.
 */
async function request(url: string, key: string, requestId: string): Promise<Outcome> {
  const sentAt = Date.now()
  try {
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${key}`, 'x-request-id': requestId },
      keepalive: false,
    } as RequestInit)
    await response.arrayBuffer() // the whole body, not just the head
    return { kind: 'answered', status: response.status, sentAt }
  } catch (error) {
    return {
      kind: 'failed',
      requestId,
      error: `${(error as { code?: string }).code ?? ''} ${(error as Error).message}`,
      at: Date.now(),
    }
  }
}

/** A login whose body is still arriving: the head and half the body now, the rest when `finish` is called. */
function slowLogin(port: number) {
  const body = JSON.stringify({ username: 'admin', password: 'not the password at all' })
  const socket = connect(port, '127.0.0.1')
  let received = ''
  const closed = new Promise<string>((resolve) => {
    socket.on('data', (chunk) => {
      received += chunk.toString()
    })
    socket.on('close', () => resolve(received))
    socket.on('error', () => {})
  })
  const opened = new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  return {
    start: async () => {
      await opened
      socket.write(
        `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
      )
    },
    finish: () => socket.write(body.slice(10)),
    closed,
  }
}

const refusedNow = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.on('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'))
  })

describe(`graceful shutdown on ${testDriver}`, () => {
  let env: Record<string, string>
  let key: string
  let service: ServiceProcess
  beforeAll(async () => {
    env = await freshServiceEnv('shutdown')
    await cli(env, 'accounts', 'create', '--username', 'loader', '--password', 'a long password', '--role', 'member')
    key = await cli(env, 'keys', 'create', '--username', 'loader', '--tier', 'pro')
    // Scheduled jobs on too: their timers must not keep the process up, nor a run cut short.
    service = startServiceProcess({ ...env, WORKERS: 'on', SHUTDOWN_TIMEOUT_MS: '15000' })
    if (!(await service.ready)) throw new Error(`the service did not start: ${await service.stderr()}`)
  }, 120_000)
  afterAll(() => {
    if (service.child.exitCode === null) service.child.kill('SIGKILL')
  })

  test('SIGTERM under load: no request cut, counts and last use written, exit 0', async () => {
    const paths = ['/api/v1/papers?limit=5', '/api/v1/search?q=aging&limit=5', '/api/v1/stats', '/readyz']
    const outcomes: Outcome[] = []
    let signalledAt = Number.POSITIVE_INFINITY
    // Eight clients, each sending one request after another until the service turns them away.
    const clients = Array.from({ length: 8 }, async (_, i) => {
      for (let n = 0; ; n++) {
        const outcome = await request(`${service.url}${paths[(i + n) % paths.length]}`, key, `load-${i}-${n}`)
        outcomes.push(outcome)
        if (outcome.kind !== 'answered') return
      }
    })
    const login = slowLogin(service.port)
    await login.start()
    // Under load when the signal comes: eight requests in flight at every moment, some twenty answered before.
    for (const until = Date.now() + 60_000; outcomes.length < 20 && Date.now() < until; ) await Bun.sleep(50)
    expect(outcomes.filter((o) => o.kind === 'answered').length).toBeGreaterThanOrEqual(20)

    signalledAt = Date.now()
    service.child.kill('SIGTERM')
    // Bun takes the signal in between requests: seconds later on a busy machine.
    for (
      const until = Date.now() + 60_000;
      !service.lines.some((l) => l.msg === 'SIGTERM: stopping') && Date.now() < until;
    )
      await Bun.sleep(20)
    await Bun.sleep(200)
    expect(await refusedNow(service.port)).toBe(true) // no longer accepting...
    login.finish() // ...but the request that was arriving is answered in full
    const answer = await login.closed
    expect(answer).toStartWith('HTTP/1.1 401')
    expect(answer).toContain('"code":"invalid_credentials"')

    await Promise.all(clients)
    expect(await service.child.exited).toBe(0)
    const taken = new Set(service.lines.filter((l) => l.msg === 'request').map((l) => l.requestId))
    const failed = outcomes.filter((o): o is Extract<Outcome, { kind: 'failed' }> => o.kind === 'failed')
    expect(failed.filter((o) => taken.has(o.requestId))).toEqual([]) // taken, answered, and the answer lost: none
    expect(service.lines.map((l) => l.msg)).not.toContain('requests still in progress at the shutdown time limit')
    expect(failed.filter((o) => o.at < signalledAt)).toEqual([]) // none before the signal
    expect(failed.length).toBeLessThanOrEqual(8) // each client stops at its first turned-away request
    const answered = outcomes.filter((o): o is Extract<Outcome, { kind: 'answered' }> => o.kind === 'answered')
    expect(answered.filter((o) => o.status >= 500)).toEqual([])

    // Nothing lost: the day's count is every Data API request the service let through, and the
    // key's last use is the last of them (batched writes, flushed at shutdown, not 5 s later).
    const api = answered.filter((o) => o.status !== 429)
    const apiCount = service.lines.filter(
      (l) => l.msg === 'request' && String(l.path).startsWith('/api/v1/') && l.status !== 429,
    ).length
    expect(apiCount).toBeGreaterThan(0)
    const database = await openConfiguredDatabase(parseConfig({ ...env, NODE_ENV: 'test' }), 1)
    try {
      const [day] = await database.rows<{ n: number }>(
        sql`select coalesce(sum(count), 0)::int as n from rate_limit_counters where "window" = 'day'`,
      )
      expect(day.n).toBe(apiCount)
      const [used] = await database.rows<{ at: string | null }>(sql`select last_used_at::text as at from api_keys`)
      const lastSent = Math.max(...api.filter((o) => o.status === 200).map((o) => o.sentAt))
      expect(new Date(used.at!).getTime()).toBeGreaterThanOrEqual(lastSent - 1000)
    } finally {
      await database.close()
    }

    // The log says what happened, one JSON object a line, the key never in it.
    expect(service.lines.filter((l) => l.level === 'unstructured')).toEqual([])
    expect(service.lines.map((l) => l.msg)).toContain('SIGTERM: stopping')
    expect(service.lines.at(-1)?.msg).toBe('stopped')
    const logged = service.lines.find((l) => l.msg === 'request' && String(l.path).startsWith('/api/v1/papers'))!
    expect(logged).toMatchObject({ method: 'GET', status: 200, keyId: key.slice(4, 12) })
    expect(typeof logged.requestId).toBe('string')
    expect(typeof logged.durationMs).toBe('number')
    expect(JSON.stringify(service.lines)).not.toContain(key)
  }, 120_000)
})

describe(`SIGINT on ${testDriver}`, () => {
  test('stops the same way: exit 0 with "stopped" last', async () => {
    const env = await freshServiceEnv('sigint')
    const service = startServiceProcess(env)
    try {
      if (!(await service.ready)) throw new Error(`the service did not start: ${await service.stderr()}`)
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200)
      service.child.kill('SIGINT')
      expect(await service.child.exited).toBe(0)
      expect(service.lines.at(-1)?.msg).toBe('stopped')
    } finally {
      if (service.child.exitCode === null) service.child.kill('SIGKILL')
    }
  }, 120_000)
})
