/**
 * GET /api/v1/search served by the Meilisearch backend, against the local stand-in for Meilisearch
 * (test/support/meili-replay.ts): it must answer as the PostgreSQL backend does wherever the two
 * can agree.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { MeilisearchSearch } from '../../../src/search/meilisearch/backend'
import { req, useTestApp } from '../../support/app'
import { bearer, insertPapers, paperRow } from '../../support/fixtures'
import { startMeiliReplay } from '../../support/meili-replay'

const meili = startMeiliReplay()
afterAll(() => meili.stop())
const api = useTestApp(() => ({ search: new MeilisearchSearch(api.database.db, { host: meili.url, apiKey: null, index: 'papers' }, () => {}) }))

const get = async (path: string) => {
  const response = await api.app.handle(req(path, bearer(api.key)))
  return { status: response.status, body: await response.json() }
}
beforeAll(async () => {
  await insertPapers(api.database.db, [paperRow({ id: 'MED-1', title: 'NAD+ precursors' })])
})

const searchRequests = () => meili.requests.filter((r) => r.path.endsWith('/search') || r.path === '/multi-search')

describe('queries without searchable words', () => {
  // Sent on, such a query would be q="" (Meilisearch's placeholder search: every paper) or a search
  // for stop words. PostgreSQL says 400; so must Meilisearch, without being asked.
  test.each(['-', 'OR', '"', '- -', 'the of and', '*', '-the'])('%s is 400 invalid_parameter, as on PostgreSQL', async (q) => {
    meili.hits = [{ id: 'MED-1', relevance: 2.6, indexed_day: 20261002, _rankingScore: 1 }] // what a placeholder search finds
    meili.requests.length = 0
    const { status, body } = await get(`/api/v1/search?q=${encodeURIComponent(q)}`)
    expect(status).toBe(400)
    expect(body.error).toMatchObject({ code: 'invalid_parameter', message: expect.stringContaining('q has no searchable words') })
    expect(searchRequests()).toEqual([])
  })

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
