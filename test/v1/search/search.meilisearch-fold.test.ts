/**
 * /search served by the Meilisearch backend, against the local stand-in (test/support/meili-replay.ts)
 * answering from the documents it was sent, as Meilisearch matches them (whole words, no stemming):
 * the documents hold title and abstract only, each query is asked in every reading PostgreSQL
 * searches it by, and a ranking longer than Meilisearch serves says it was cut.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { MeilisearchSearch, meiliClient } from '../../../src/search/meilisearch/backend'
import { MEILI_MAX_HITS } from '../../../src/search/meilisearch/documents'
import { reindex } from '../../../src/search/meilisearch/sync'
import { req, useTestApp } from '../../support/app'
import { bearer, insertPapers, paperRow } from '../../support/fixtures'
import { startMeiliReplay } from '../../support/meili-replay'

const meili = startMeiliReplay()
afterAll(() => meili.stop())
const config = { host: meili.url, apiKey: null, index: 'papers' }
const api = useTestApp(() => ({ search: new MeilisearchSearch(api.database.db, config, () => {}) }))

const get = async (path: string) => {
  const response = await api.app.handle(req(path, bearer(api.key)))
  return { status: response.status, body: await response.json() }
}
const ids = (body: { data: { id: string }[] }) => body.data.map((p) => p.id)
const DEEP = MEILI_MAX_HITS + 20

beforeAll(async () => {
  await insertPapers(api.database.db, [
    paperRow({ id: 'MED-81', title: 'Caloric restriction in old mice', abstract: 'Lifespan rose with restriction.' }),
    paperRow({ id: 'MED-82', title: 'Healthy ageing in centenarians', abstract: 'A cohort study.' }),
    paperRow({ id: 'MED-83', title: 'Tumor growth slows', abstract: 'Fewer in the treated group.' }),
    paperRow({ id: 'MED-85', title: 'Heme oxygenase in the kidney', abstract: 'Free heme was raised.' }),
    paperRow({ id: 'MED-86', title: 'NAD precursors in muscle', abstract: 'Riboside raised NAD levels.' }),
    paperRow({
      id: 'MED-84',
      title: 'Cell biology of the liver',
      abstract: 'Nothing else is said here.',
      keywords: ['zebrafish'],
      meshHeadings: [{ descriptor: 'Sirtuins', major: true, qualifiers: [] }],
    }),
    ...Array.from({ length: DEEP }, (_, i) =>
      paperRow({ id: `MED-${800000 + i}`, title: `Serum klotho ${i}`, abstract: 'Measured.' }),
    ),
  ])
  await reindex(api.database.db, meiliClient(config), 'papers')
})

describe('what Meilisearch is asked', () => {
  test('the index searches title and abstract, and documents hold nothing else to search', () => {
    expect(meili.settings.searchableAttributes).toEqual(['title', 'abstract'])
    expect(Object.keys(meili.documents.get('MED-84')!)).not.toEqual(expect.arrayContaining(['keywords']))
    expect(JSON.stringify(meili.documents.get('MED-84'))).not.toMatch(/zebrafish|Sirtuins/)
  })

  test.each([
    ['mouse', 'MED-81'],
    ['mice', 'MED-81'],
    ['aging', 'MED-82'],
    ['ageing', 'MED-82'],
    ['tumour', 'MED-83'],
    ['tumor', 'MED-83'],
    ['haem', 'MED-85'],
    ['heme', 'MED-85'],
    [encodeURIComponent('NAD+'), 'MED-86'],
    ['NAD', 'MED-86'],
  ])('/search?q=%s finds %s', async (q, id) => {
    meili.hits = 'match'
    expect(ids((await get(`/api/v1/search?q=${q}`)).body)).toEqual([id])
  })

  test('a paper whose only match is a keyword or a MeSH heading is no hit', async () => {
    meili.hits = 'match'
    for (const q of ['zebrafish', 'sirtuins'])
      expect({ q, ids: ids((await get(`/api/v1/search?q=${q}&min_relevance=0`)).body) }).toEqual({ q, ids: [] })
  })
})

describe('a ranking longer than Meilisearch serves', () => {
  test(`serves the best ${MEILI_MAX_HITS} and says on every page that the list was cut`, async () => {
    meili.hits = 'match'
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const { status, body } = await get(`/api/v1/search?q=klotho&limit=100${cursor ? `&cursor=${cursor}` : ''}`)
      expect(status).toBe(200)
      expect(body.pagination).toMatchObject({ truncated: true, max_hits: MEILI_MAX_HITS })
      seen.push(...ids(body))
      cursor = body.pagination.next_cursor
    } while (cursor)
    expect(seen.length).toBe(MEILI_MAX_HITS)
    expect(new Set(seen).size).toBe(MEILI_MAX_HITS)
  })

  test('a ranking within the bound is not cut', async () => {
    meili.hits = 'match'
    const { body } = await get('/api/v1/search?q=mice')
    expect(body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 25, truncated: false })
  })
})
