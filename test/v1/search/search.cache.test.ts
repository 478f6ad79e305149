/**
 * GET /api/v1/search through the response cache: a repeated search is answered from memory, and a
 * change shows on the next search once the backend sees it. With Meilisearch that is later than the
 * change itself: the index learns of it when the worker drains the search outbox.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { MeilisearchSearch, meiliClient } from '../../../src/search/meilisearch/backend'
import { drainOutbox } from '../../../src/search/meilisearch/sync'
import { enqueueSearchSync } from '../../../src/search/outbox'
import { req, useTestApp, type TestApi } from '../../support/app'
import { eventually } from '../../support/eventually'
import { bearer, insertPapers, paperRow } from '../../support/fixtures'
import { startMeiliReplay } from '../../support/meili-replay'

const ids = async (api: TestApi, path: string): Promise<string[]> => {
  const response = await api.app.handle(req(path, bearer(api.key)))
  expect(response.status).toBe(200)
  return (await response.json()).data.map((p: { id: string }) => p.id)
}

describe('on PostgreSQL', () => {
  const api = useTestApp()
  beforeAll(() => insertPapers(api.database.db, [paperRow({ id: 'MED-1', title: 'Klotho in aged mice' })]))

  test('a repeated search gives the same answer, and a new paper that matches shows on a later one', async () => {
    const path = '/api/v1/search?q=klotho'
    const first = await api.app.handle(req(path, bearer(api.key)))
    const second = await api.app.handle(req(path, bearer(api.key)))
    expect(await second.text()).toBe(await first.text())
    expect(second.headers.get('content-type')).toContain('application/json')
    await insertPapers(api.database.db, [paperRow({ id: 'MED-2', title: 'Klotho and kidney ageing', relevance: 2.9 })])
    // The first notification may come before the app listens (test/v1/response-cache.test.ts): room for expiry.
    expect(await eventually(async () => (await ids(api, path)).length === 2, 35_000)).toBe(true)
  })
})

describe('on Meilisearch', () => {
  const meili = startMeiliReplay()
  afterAll(() => meili.stop())
  const config = { host: meili.url, apiKey: null, index: 'papers' }
  const api = useTestApp(() => ({ search: new MeilisearchSearch(api.database.db, config, () => {}) }))
  const drain = () => drainOutbox(api.database.db, meiliClient(config), 'papers')
  const searches = () => meili.requests.filter((r) => r.path.endsWith('/search') || r.path === '/multi-search').length

  beforeAll(async () => {
    meili.hits = 'match'
    await insertPapers(api.database.db, [paperRow({ id: 'MED-11', title: 'Rapamycin in old dogs' })])
    await enqueueSearchSync(api.database.db, ['MED-11'])
    await drain()
  })

  test('a search is kept until the index has the change, not only until the change lands', async () => {
    const path = '/api/v1/search?q=rapamycin'
    expect(await ids(api, path)).toEqual(['MED-11'])
    const asked = searches()
    expect(await ids(api, path)).toEqual(['MED-11'])
    expect(searches()).toBe(asked) // from the cache

    // A harvest adds a paper and queues it for the index in one transaction; the cache empties, but
    // Meilisearch does not hold the paper yet, so the next search, kept again, still lacks it.
    await api.database.db.transaction(async (tx) => {
      await insertPapers(tx, [paperRow({ id: 'MED-12', title: 'Rapamycin and the aging heart', relevance: 2.9 })])
      await enqueueSearchSync(tx, ['MED-12'])
    })
    expect(await eventually(async () => (await ids(api, path), searches() > asked), 35_000)).toBe(true)
    expect(await ids(api, path)).toEqual(['MED-11'])

    await drain() // the index has it now
    expect(await eventually(async () => (await ids(api, path)).includes('MED-12'))).toBe(true)
  })
})
