/**
 * The TypeScript client (clients/ts) against the real app served on a local port over HTTP: it
 * lists, pages, gets, searches, batch-looks-up, reads claims, throws the contract's errors as
 * GeroscopeError, and waits out a real 429's Retry-After (the app's clock is a fake one that the
 * client's sleep moves forward, so the wait costs no time).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { GeroscopeClient, GeroscopeError, type ClientOptions } from '../../clients/ts/src/client'
import { serve, type RunningServer } from '../../src/platform/serve'
import { req, useTestApp } from '../support/app'
import { bearer, createTestKey, insertClaim, insertPapers, paperRow } from '../support/fixtures'

let clock = new Date('2030-01-15T10:00:30Z')
const api = useTestApp(() => ({ now: () => clock }))
let server: RunningServer
let baseUrl = ''
const client = (options: Partial<ClientOptions> = {}) => new GeroscopeClient({ baseUrl, key: api.key, ...options })

/** The GeroscopeError `promise` is rejected with. */
async function failure(promise: Promise<unknown>): Promise<GeroscopeError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof GeroscopeError) return error
    throw error
  }
  throw new Error('expected a GeroscopeError, got an answer')
}

const CORPUS = Array.from({ length: 7 }, (_, i) => `MED-${81000 + i}`)

beforeAll(async () => {
  await insertPapers(
    api.database.db,
    CORPUS.map((id, i) =>
      paperRow({
        id,
        doi: `10.1000/client.${i}`,
        indexedDate: `2026-10-${String(10 + i).padStart(2, '0')}`,
        title: i === 2 ? 'Klotho protects the ageing kidney' : `Client paper ${i} on rapamycin`,
      }),
    ),
  )
  await insertClaim(api.database.db, { paperId: 'MED-81001', subjectText: 'rapamycin', relation: 'extends_lifespan' })
  await insertClaim(api.database.db, { paperId: 'MED-81003', subjectText: 'metformin', relation: 'extends_lifespan' })
  server = serve((request) => api.app.handle(request), 0)
  baseUrl = `http://127.0.0.1:${server.port}/`
})

afterAll(async () => {
  await server?.stop(true)
})

describe('reading', () => {
  test('lists papers newest first, and all() follows next_cursor through every page of the corpus', async () => {
    const first = await client().papers({ limit: 3 })
    expect(first.data.map((p) => p.id)).toEqual(['MED-81006', 'MED-81005', 'MED-81004'])
    const pages = []
    for await (const page of client().pages('/api/v1/papers', { query: { limit: 3 } }))
      pages.push(page.data.map((p) => p.id))
    expect(pages).toEqual([
      ['MED-81006', 'MED-81005', 'MED-81004'],
      ['MED-81003', 'MED-81002', 'MED-81001'],
      ['MED-81000'],
    ])
    const all = []
    for await (const paper of client().all('/api/v1/papers', { query: { limit: 2 } })) all.push(paper.id)
    expect(all).toEqual([...CORPUS].reverse())
  })

  test('gets one paper, by id and through the DOI path', async () => {
    const paper = await client().paper('MED-81002')
    expect(paper.data.title).toBe('Klotho protects the ageing kidney')
    const byDoi = await client().get('/api/v1/papers/doi:{doi}', { path: { doi: '10.1000/client.4' } })
    expect(byDoi.data.id).toBe('MED-81004')
  })

  test('searches', async () => {
    const hits = await client().search({ q: 'klotho' })
    expect(hits.data.map((hit) => hit.id)).toEqual(['MED-81002'])
  })

  test('reads claims, filtered and paged', async () => {
    const claims = await client().claims({ subject: 'metformin' })
    // a claims page may hold tombstones only with updated_since (the change feed); the types say both
    expect(claims.data.map((c) => ('paper' in c ? c.paper.id : null))).toEqual(['MED-81003'])
    const every = []
    for await (const claim of client().all('/api/v1/claims', { query: { limit: 1 } }))
      every.push('paper' in claim ? claim.paper.id : null)
    expect(every.sort()).toEqual(['MED-81001', 'MED-81003'])
  })

  test('looks papers up in one batch, in the order asked, unknown ids reported', async () => {
    const answer = await client().papersBatch(['MED-81005', 'doi:10.1000/client.0', 'MED-99999'])
    expect(answer.data.map((p) => p?.id ?? null)).toEqual(['MED-81005', 'MED-81000', null])
    expect(answer.not_found).toEqual(['MED-99999'])
  })
})

describe('errors', () => {
  test("a 404 is a GeroscopeError with the contract's status, code and message, and the request id", async () => {
    const e = await failure(client().paper('MED-99999'))
    expect({ status: e.status, code: e.code }).toEqual({ status: 404, code: 'not_found' })
    expect(e.message.length).toBeGreaterThan(0)
    expect(e.requestId).toBeTruthy()
  })

  test('a bad parameter is invalid_parameter, and no key is missing_key (neither retried)', async () => {
    let calls = 0
    const counting = (options: Partial<ClientOptions> = {}) =>
      client({ fetch: (url, init) => (calls++, fetch(url, init)), ...options })
    const bad = await failure(counting().papers({ limit: 0 }))
    expect([bad.status, bad.code]).toEqual([400, 'invalid_parameter'])
    const anonymous = await failure(counting({ key: undefined }).papers())
    expect([anonymous.status, anonymous.code]).toEqual([401, 'missing_key'])
    expect(calls).toBe(2)
  })

  test('an answer that is not the envelope is still a GeroscopeError (unexpected_response)', async () => {
    const proxy = client({ fetch: async () => new Response('<html>Bad gateway</html>', { status: 502 }) })
    const error = await failure(proxy.papers())
    expect([error.status, error.code]).toEqual([502, 'unexpected_response'])
    expect(error.message).toContain('Bad gateway')
  })
})

describe('rate limits', () => {
  /** A member key (60 a minute) whose minute allowance is spent, with the fake clock 30 s into the minute. */
  async function spentMemberKey() {
    clock = new Date('2030-01-15T10:00:30Z')
    const { key } = await createTestKey(api.database.db, { tier: 'member' })
    for (let i = 0; i < 60; i++) expect((await api.app.handle(req('/api/v1/topics', bearer(key)))).status).toBe(200)
    return key
  }

  test('a 429 is waited out for its Retry-After, then the request is answered', async () => {
    const key = await spentMemberKey()
    const waits: number[] = []
    const sleep = async (ms: number) => {
      waits.push(ms)
      clock = new Date(clock.getTime() + ms)
    }
    const page = await client({ key, sleep }).papers({ limit: 1 })
    expect(page.data.map((p) => p.id)).toEqual(['MED-81006'])
    expect(waits).toEqual([30_000]) // to the end of the minute, as the service said
  })

  test('retries are bounded: past maxRetries the 429 is thrown, with its Retry-After', async () => {
    const key = await spentMemberKey()
    const waits: number[] = []
    const error = await failure(
      client({
        key,
        maxRetries: 2,
        sleep: async (ms) => {
          waits.push(ms)
        },
      }).papers(),
    )
    expect(error).toBeInstanceOf(GeroscopeError)
    expect([error.status, error.code, error.retryAfter]).toEqual([429, 'rate_limited', 30])
    expect(waits).toEqual([30_000, 30_000])
  })

  test('a Retry-After longer than maxRetryWaitSeconds is not waited for', async () => {
    const key = await spentMemberKey()
    const waits: number[] = []
    const error = await failure(
      client({
        key,
        maxRetryWaitSeconds: 10,
        sleep: async (ms) => {
          waits.push(ms)
        },
      }).papers(),
    )
    expect([error.status, error.code]).toEqual([429, 'rate_limited'])
    expect(waits).toEqual([])
  })

  test('a 503 is retried too: after its Retry-After, or backing off 1, 2, 4 s by attempt when it gives none', async () => {
    // The app answers 503 only while its database is down; here the first answers are made up in front of the real one.
    const outages: Record<string, string>[] = [{ 'retry-after': '5' }, {}, {}]
    const waits: number[] = []
    const flaky = client({
      sleep: async (ms) => {
        waits.push(ms)
      },
      fetch: async (url, init) => {
        const headers = outages.shift()
        if (!headers) return fetch(url, init)
        return Response.json(
          { error: { status: 503, code: 'unavailable', message: 'The database is unreachable.' } },
          { status: 503, headers },
        )
      },
    })
    expect((await flaky.paper('MED-81000')).data.id).toBe('MED-81000')
    expect(waits).toEqual([5_000, 2_000, 4_000])
  })
})
