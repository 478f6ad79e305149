/**
 * GET /api/v1/search served by the Meilisearch backend, against the local stand-in for Meilisearch
 * (test/support/meili-replay.ts): it must answer as the PostgreSQL backend does wherever the two
 * can agree.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { encodeCursor } from '../../../src/http/cursor'
import { MeilisearchSearch } from '../../../src/search/meilisearch/backend'
import { TEST_SECRET, req, useTestApp } from '../../support/app'
import { bearer, insertPapers, paperRow } from '../../support/fixtures'
import { startMeiliReplay } from '../../support/meili-replay'

const meili = startMeiliReplay()
afterAll(() => meili.stop())
// No response cache: these tests change what the stand-in answers with no change to the data, which
// a real index never does (test/v1/search/search.cache.test.ts covers the cache with Meilisearch).
const api = useTestApp(() => ({
  search: new MeilisearchSearch(api.database.db, { host: meili.url, apiKey: null, index: 'papers' }, () => {}),
  responseCache: null,
}))

const get = async (path: string) => {
  const response = await api.app.handle(req(path, bearer(api.key)))
  return { status: response.status, body: await response.json() }
}
const KLOTHO = ['MED-11', 'MED-12', 'MED-13', 'MED-14']

beforeAll(async () => {
  await insertPapers(api.database.db, [
    paperRow({ id: 'MED-1', title: 'NAD+ precursors' }),
    ...KLOTHO.map((id, i) => paperRow({ id, title: `Klotho study ${i}`, relevance: 2 + i / 10 })),
  ])
})

const ids = (body: { data: { id: string }[] }) => body.data.map((p) => p.id)
const searchRequests = () => meili.requests.filter((r) => r.path.endsWith('/search') || r.path === '/multi-search')

describe('queries without searchable words', () => {
  // Sent on, such a query would be q="" (Meilisearch's placeholder search: every paper) or a search
  // for stop words. PostgreSQL says 400; so must Meilisearch, without being asked.
  test.each(['-', 'OR', '"', '- -', 'the of and', '*', '-the'])(
    '%s is 400 invalid_parameter, as on PostgreSQL',
    async (q) => {
      meili.hits = [{ id: 'MED-1', relevance: 2.6, indexed_day: 20261002, _rankingScore: 1 }] // what a placeholder search finds
      meili.requests.length = 0
      const { status, body } = await get(`/api/v1/search?q=${encodeURIComponent(q)}`)
      expect(status).toBe(400)
      expect(body.error).toMatchObject({
        code: 'invalid_parameter',
        message: expect.stringContaining('q has no searchable words'),
      })
      expect(searchRequests()).toEqual([])
    },
  )

  test('symbols around real words search for the words only', async () => {
    meili.hits = [{ id: 'MED-1', relevance: 2.6, indexed_day: 20261002, _rankingScore: 0.9 }]
    meili.requests.length = 0
    const { status, body } = await get(`/api/v1/search?q=${encodeURIComponent('NAD+ OR GLP-1 & | ! :*')}`)
    expect(status).toBe(200)
    expect(body.data.map((p: { id: string }) => p.id)).toEqual(['MED-1'])
    const sent = searchRequests()[0]?.body as { queries: { q: string }[] }
    expect(sent.queries.map((q) => q.q)).toEqual(['NAD+', 'GLP1'])
  })
})

describe('paging when Meilisearch fails in between', () => {
  const down = { status: 503, code: 'internal', message: 'the stand-in is down' }
  const page = (cursor: string | null) => get(`/api/v1/search?q=klotho&limit=1${cursor ? `&cursor=${cursor}` : ''}`)

  /** Every page's ids, with `before(n)` called before page n (0 first). */
  async function walk(before: (n: number) => void = () => {}) {
    const walked: string[] = []
    let cursor: string | null = null
    for (let n = 0; n === 0 || cursor; n++) {
      before(n)
      const { body } = await page(cursor)
      walked.push(...ids(body))
      cursor = body.pagination.next_cursor
    }
    return walked
  }

  test("a cursor into Meilisearch's ranking is a 400 that says so, never a page of another ranking", async () => {
    meili.failSearches = null
    meili.hits = KLOTHO.map((id, i) => ({
      id,
      relevance: 2 + i / 10,
      indexed_day: 20261002,
      _rankingScore: 0.9 - i / 10,
    }))
    const first = await page(null)
    expect(ids(first.body)).toEqual(['MED-11'])
    meili.failSearches = down
    const second = await page(first.body.pagination.next_cursor)
    expect(second.status).toBe(400)
    expect(second.body.error).toMatchObject({
      code: 'invalid_parameter',
      message: expect.stringContaining('repeat the search without cursor'),
    })
  })

  test('a ranking begun on PostgreSQL, while Meilisearch was down, is finished there', async () => {
    meili.failSearches = down
    const onPostgres = await walk()
    expect([...onPostgres].sort()).toEqual(KLOTHO)
    const walked = await walk((n) => {
      meili.failSearches = n === 0 ? down : null // back after the first page
      meili.requests.length = 0
    })
    expect(walked).toEqual(onPostgres)
    expect(searchRequests()).toEqual([])
  })

  test('a cursor that does not say whose ranking it continues is refused', async () => {
    const untagged = encodeCursor(TEST_SECRET, 'search', { minRelevance: 2, q: 'klotho' }, [0.5, 'MED-11', 1])
    const { status, body } = await page(untagged)
    expect(status).toBe(400)
    expect(body.error.message).toContain('cursor is not a cursor this API issued')
  })
})
