/**
 * JSON-RPC batches on POST /api/v1/mcp: every message counts as one request against the key, the
 * part of a batch past the allowance is refused with 429 in JSON-RPC errors and not run, and what
 * one request can make is bounded (at most MAX_MESSAGES messages, answers up to MAX_ANSWER_BYTES).
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { refreshEntityCounts } from '../../../src/jobs/refresh-entity-counts'
import { MAX_ANSWER_BYTES, MAX_MESSAGES, serveBatch } from '../../../src/modules/v1/mcp/batch'
import { decide } from '../../../src/rate-limit/store'
import { req, useTestApp } from '../../support/app'
import { bearer, createTestKey, insertPapers, paperRow } from '../../support/fixtures'

// The rate-limit tests count within one minute: a frozen clock keeps a slow run from crossing into the next.
const frozen = new Date()
const api = useTestApp(() => ({ now: () => frozen }))

beforeAll(async () => {
  await insertPapers(api.database.db, [paperRow({ id: 'MED-1' })])
  await refreshEntityCounts(api.database.db)
})

type Answer = {
  id: number
  result?: { content: { text: string }[]; isError?: boolean }
  error?: { code: number; message: string; data?: { status: number; retry_after?: number } }
}

const call = (id: number, name = 'get_stats', args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
})

function post(key: string, body: unknown) {
  return api.app.handle(
    req('/api/v1/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(body),
    }),
  )
}

const used = async (key: string) =>
  Number((await api.app.handle(req('/api/v1/topics', bearer(key)))).headers.get('x-ratelimit-used'))

describe('an MCP batch', () => {
  test('counts each of its messages as one request', async () => {
    const member = await createTestKey(api.database.db, { tier: 'member' })
    const before = await used(member.key) // 1
    const response = await post(
      member.key,
      Array.from({ length: 10 }, (_, i) => call(i + 1)),
    )
    expect(response.status).toBe(200)
    const answers = (await response.json()) as Answer[]
    expect(answers.map((a) => a.id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(answers.every((a) => a.result && !a.result.isError)).toBe(true)
    expect(response.headers.get('x-ratelimit-used')).toBe(String(before + 10))
    expect(await used(member.key)).toBe(before + 10 + 1)
  })

  test('past the allowance, the rest is refused with 429 in JSON-RPC errors, runs nothing and costs nothing', async () => {
    const member = await createTestKey(api.database.db, { tier: 'member' }) // 60 a minute
    for (let i = 0; i < 2; i++)
      expect(
        (
          await post(
            member.key,
            Array.from({ length: 25 }, (_, j) => call(j + 1)),
          )
        ).status,
      ).toBe(200)
    const response = await post(
      member.key,
      Array.from({ length: 25 }, (_, j) => call(j + 1, 'get_paper', { id: 'MED-1' })),
    )
    expect(response.status).toBe(200)
    const answers = (await response.json()) as Answer[]
    const served = answers.filter((a) => a.result)
    const refused = answers.filter((a) => a.error)
    expect(served.length).toBe(10) // 50 used before: the gate's 1 and 9 more fill the minute
    expect(served.every((a) => a.id <= 10)).toBe(true)
    expect(refused.length).toBe(15)
    expect(refused[0].error!.data!.status).toBe(429)
    expect(refused[0].error!.message).toStartWith('429 rate_limited: rate limit reached; retry after')
    expect(refused[0].error!.data!.retry_after).toBeGreaterThan(0)
    expect(response.headers.get('x-ratelimit-minute-remaining')).toBe('0')
    expect(response.headers.get('x-ratelimit-used')).toBe('60')
    const next = await api.app.handle(req('/api/v1/topics', bearer(member.key)))
    expect(next.status).toBe(429)
    expect(next.headers.get('x-ratelimit-used')).toBe('60')
  })

  test(`of more than ${MAX_MESSAGES} messages is refused whole, costing one request`, async () => {
    const member = await createTestKey(api.database.db, { tier: 'member' })
    const response = await post(
      member.key,
      Array.from({ length: 100 }, (_, i) => call(i + 1, 'search_papers', { q: 'aging' })),
    )
    expect(response.status).toBe(400)
    const body = (await response.json()) as { error: { code: number; message: string }; id: null }
    expect(body.error.code).toBe(-32600)
    expect(body.error.message).toContain(`at most ${MAX_MESSAGES} messages (got 100)`)
    expect(await used(member.key)).toBe(2)
  })

  test('notifications are counted and not answered; a batch of only notifications is a 202', async () => {
    const member = await createTestKey(api.database.db, { tier: 'member' })
    const note = { jsonrpc: '2.0', method: 'notifications/initialized' }
    const mixed = await post(member.key, [note, call(7), note])
    expect(((await mixed.json()) as Answer[]).map((a) => a.id)).toEqual([7])
    expect((await post(member.key, [note, note])).status).toBe(202)
    expect(await used(member.key)).toBe(5 + 1)
  })

  test('a malformed message or an initialize in a batch refuses the batch as the SDK does', async () => {
    const member = await createTestKey(api.database.db, { tier: 'member' })
    const malformed = await post(member.key, [call(1), { hello: 'world' }])
    expect(malformed.status).toBe(400)
    expect(((await malformed.json()) as { error: { code: number } }).error.code).toBe(-32700)
    const init = {
      jsonrpc: '2.0',
      id: 9,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }
    const twoInits = await post(member.key, [init, call(1)])
    expect(twoInits.status).toBe(400)
    expect(((await twoInits.json()) as { error: { message: string } }).error.message).toContain(
      'Only one initialization request',
    )
  })

  test('a body over 1 MiB is refused with a JSON-RPC 413, before anything runs', async () => {
    const member = await createTestKey(api.database.db, { tier: 'member' })
    const padding = 'x'.repeat(1024 * 1024)
    const response = await post(member.key, [call(1, 'search_papers', { q: padding }), call(2)])
    expect(response.status).toBe(413)
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      'must not exceed 1048576 bytes',
    )
    expect(await used(member.key)).toBe(2)
  })

  test('a wrong Accept header answers for the whole batch, as for one message', async () => {
    const member = await createTestKey(api.database.db, { tier: 'member' })
    const response = await api.app.handle(
      req('/api/v1/mcp', {
        method: 'POST',
        headers: { authorization: `Bearer ${member.key}`, 'content-type': 'application/json', accept: 'text/html' },
        body: JSON.stringify([call(1), call(2)]),
      }),
    )
    expect(response.status).toBe(406)
  })
})

describe('what one batch can hold in memory', () => {
  const allowAll = async () => decide({ perMinute: 1_000_000 }, 0, 0, new Date())

  test(`answers stop at ${MAX_ANSWER_BYTES / 1024 / 1024} MiB; the messages after it are refused and not charged`, async () => {
    const big = 'x'.repeat(1024 * 1024) // each answer about 1 MiB
    let served = 0
    let charged = 0
    const serve = async (message: unknown) => {
      served++
      const { id } = message as { id: number }
      return Response.json({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: big }] } })
    }
    const { response } = await serveBatch(
      Array.from({ length: 10 }, (_, i) => call(i + 1)),
      serve,
      async () => {
        charged++
        return allowAll()
      },
    )
    const answers = (await response.json()) as Answer[]
    expect(served).toBe(4) // the fourth crosses 4 MiB
    expect(charged).toBe(3) // the first was the gate's
    expect(answers.filter((a) => a.error).map((a) => a.error!.data!.status)).toEqual([413, 413, 413, 413, 413, 413])
    expect(answers.filter((a) => a.error)[0].error!.message).toContain('it was not counted')
  })
})

describe('concurrent MCP calls past the allowance', () => {
  test('get_papers calls refused with 429 use no allowance', async () => {
    const member = await createTestKey(api.database.db, { tier: 'member' }) // 60 a minute
    const before = await used(member.key) // 1
    const ids = Array.from({ length: 500 }, (_, i) => `MED-${i + 1}`) // 5 requests each: the message and 4 for the batch
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(member.key, call(i + 1, 'get_papers', { ids }))),
    )
    expect(responses.every((r) => r.status === 200)).toBe(true)
    const results = await Promise.all(responses.map(async (r) => ((await r.json()) as Answer).result!))
    const refused = results.filter((r) => r.isError)
    expect(refused.length).toBeGreaterThan(0)
    expect(refused.every((r) => r.content[0].text.startsWith('429 rate_limited'))).toBe(true)
    expect(await used(member.key)).toBe(before + 5 * (results.length - refused.length) + 1)
  })
})
