/**
 * Cached Data API answers: the same body as a fresh computation, fresh headers on every response,
 * emptied by any change to the data (whoever makes it), bounded in age and memory.
 */
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { papers } from '../../src/db/schema'
import { heapStats } from 'bun:jsc'
import { ENTRY_OVERHEAD, ResponseCache, entryCost } from '../../src/modules/v1/response-cache'
import { req, useTestApp } from '../support/app'
import { eventually } from '../support/eventually'
import { bearer, insertPapers, paperRow } from '../support/fixtures'

describe('ResponseCache', () => {
  const make = (maxBytes = 100_000, ttlMs = 1000) => {
    let clock = 0
    const cache = new ResponseCache({ maxBytes, ttlMs, now: () => clock })
    const json = async (key: string, compute: () => Promise<unknown>): Promise<string> =>
      new TextDecoder().decode(await cache.json(key, compute))
    return {
      cache,
      json,
      tick: (ms: number) => {
        clock += ms
      },
    }
  }

  test('computes once, then answers the same JSON text from memory', async () => {
    const { cache, json } = make()
    let calls = 0
    const compute = async () => ({ n: ++calls })
    expect(await json('/a', compute)).toBe('{"n":1}')
    expect(await json('/a', compute)).toBe('{"n":1}')
    expect(await json('/b', compute)).toBe('{"n":2}')
  })

  test('concurrent requests for one key share one computation', async () => {
    const { cache, json } = make()
    let calls = 0
    const compute = async () => {
      calls++
      await Bun.sleep(10)
      return calls
    }
    expect(await Promise.all([json('/a', compute), json('/a', compute), json('/a', compute)])).toEqual(['1', '1', '1'])
    expect(calls).toBe(1)
  })

  test('an answer expires after its time to live', async () => {
    const { cache, json, tick } = make(100_000, 500)
    let calls = 0
    const compute = async () => ++calls
    await json('/a', compute)
    tick(499)
    expect(await json('/a', compute)).toBe('1')
    tick(1)
    expect(await json('/a', compute)).toBe('2')
  })

  test('invalidate empties it, and an answer computed across a change is not kept', async () => {
    const { cache, json } = make()
    let calls = 0
    await json('/a', async () => ++calls)
    cache.invalidate()
    expect(cache.size.entries).toBe(0)
    let release = () => {}
    const slow = json(
      '/a',
      () =>
        new Promise((resolve) => {
          release = () => resolve(++calls)
        }),
    )
    cache.invalidate() // the data changed while /a was being read
    release()
    expect(await slow).toBe('2')
    expect(cache.size.entries).toBe(0)
    expect(await json('/a', async () => ++calls)).toBe('3')
  })

  test('drops the least recently used answers beyond maxBytes, and never keeps one over a tenth of it', async () => {
    const ten = async () => 'x'.repeat(8) // 10 bytes of JSON with the quotes
    const each = entryCost('/0', new Uint8Array(10)) // body, key and the objects that hold them
    const { cache, json } = make(10 * each)
    for (let i = 0; i < 10; i++) await json(`/${i}`, ten)
    expect(cache.size).toEqual({ entries: 10, bytes: 10 * each })
    await json('/0', ten) // /0 is now the most recently used, /1 the least
    await json('/9', ten)
    expect(cache.size).toEqual({ entries: 10, bytes: 10 * each })
    await json('/a', ten)
    const recomputed: string[] = []
    for (const key of ['/0', '/1'])
      await json(key, async () => {
        recomputed.push(key)
        return 'x'.repeat(8)
      })
    expect(recomputed).toEqual(['/1'])
    await json('/big', async () => 'x'.repeat(9))
    let again = false
    await json('/big', async () => {
      again = true
      return ''
    })
    expect(again).toBe(true)
  })

  test('counts what an entry costs, its key included, not only the bytes of its answer', async () => {
    const { cache, json } = make(1_000_000)
    const key = `/api/v1/papers?q=${'é'.repeat(300)}`
    await json(key, async () => [])
    expect(cache.size.bytes).toBe(2 + 2 * key.length + ENTRY_OVERHEAD)
  })

  // The soak in scripts/soak-memory.ts found a 64 MB cache of empty pages holding 290 MB of heap.
  test('a cache full of small answers stays within its budget in memory', async () => {
    const budget = 8 * 1024 * 1024
    Bun.gc(true)
    const before = heapStats().heapSize
    const cache = new ResponseCache({ maxBytes: budget, ttlMs: 60_000 })
    const empty = { data: [], pagination: { next_cursor: null, has_more: false, limit: 25 } }
    for (let i = 0; i < 60_000; i++) await cache.json(`/api/v1/papers?q=word${i}&since=2026-01-01`, async () => empty)
    Bun.gc(true)
    const grown = heapStats().heapSize - before
    expect(cache.size.bytes).toBeLessThanOrEqual(budget)
    expect(grown / budget).toBeLessThan(1.25)
    cache.invalidate()
  }, 30_000)

  test('expired answers leave memory on their own, with no request to notice them', async () => {
    const cache = new ResponseCache({ maxBytes: 1_000_000, ttlMs: 50 })
    for (let i = 0; i < 100; i++) await cache.json(`/${i}`, async () => i)
    expect(cache.size.entries).toBe(100)
    await Bun.sleep(200)
    expect(cache.size).toEqual({ entries: 0, bytes: 0 })
  })

  test('a failed computation is not cached', async () => {
    const { cache, json } = make()
    await expect(
      json('/a', async () => {
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    expect(await json('/a', async () => 'ok')).toBe('"ok"')
  })
})

describe('cached answers over HTTP', () => {
  const api = useTestApp()

  test('repeat the body with fresh request ids, rate-limit headers and the JSON content type', async () => {
    await insertPapers(api.database.db, [paperRow({ id: 'MED-70000001', title: 'Cached paper one' })])
    const first = await api.app.handle(req('/api/v1/papers/MED-70000001', bearer(api.key)))
    const second = await api.app.handle(req('/api/v1/papers/MED-70000001', bearer(api.key)))
    expect(second.status).toBe(200)
    expect(await second.text()).toBe(await first.text())
    expect(second.headers.get('content-type')).toContain('application/json')
    expect(second.headers.get('cache-control')).toBe('private, max-age=60')
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'))
    expect(Number(second.headers.get('x-ratelimit-used'))).toBe(Number(first.headers.get('x-ratelimit-used')) + 1)
  })

  test('show a change to the data on the next request', async () => {
    // The app starts listening for changes as it is built, without waiting: on a loaded machine the
    // first change can come before the listener. Warm up on another paper with room for the answer
    // to expire (30 s) instead; the change timed below then must be heard, as no answer expires in 2 s.
    await insertPapers(api.database.db, [paperRow({ id: 'MED-70000009', title: 'Warm-up' })])
    const warmUp = '/api/v1/papers/MED-70000009'
    await api.app.handle(req(warmUp, bearer(api.key)))
    await api.database.db.update(papers).set({ title: 'Warmed up' }).where(eq(papers.id, 'MED-70000009'))
    expect(
      await eventually(
        async () => (await (await api.app.handle(req(warmUp, bearer(api.key)))).json()).data.title === 'Warmed up',
        35_000,
      ),
    ).toBe(true)
    await insertPapers(api.database.db, [paperRow({ id: 'MED-70000002', title: 'Before the change' })])
    const path = '/api/v1/papers/MED-70000002'
    expect((await (await api.app.handle(req(path, bearer(api.key)))).json()).data.title).toBe('Before the change')
    await api.database.db.update(papers).set({ title: 'After the change' }).where(eq(papers.id, 'MED-70000002'))
    expect(
      await eventually(
        async () => (await (await api.app.handle(req(path, bearer(api.key)))).json()).data.title === 'After the change',
      ),
    ).toBe(true)
  })

  test('never hold errors: a 404 becomes a 200 once the paper exists', async () => {
    const path = '/api/v1/papers/MED-70000003'
    expect((await api.app.handle(req(path, bearer(api.key)))).status).toBe(404)
    await insertPapers(api.database.db, [paperRow({ id: 'MED-70000003' })])
    expect(await eventually(async () => (await api.app.handle(req(path, bearer(api.key)))).status === 200)).toBe(true)
  })
})
