/**
 * /search knows an entity's other names on the Meilisearch backend too, through the index's
 * `synonyms` setting, which the sync keeps in step with the lexicon: the same papers as on
 * PostgreSQL (search.synonyms.test.ts), against the local stand-in (test/support/meili-replay.ts),
 * which matches the documents it was sent and applies the synonyms it was given, as Meilisearch does.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { syncSearchIndex } from '../../../src/search'
import { MeilisearchSearch, meiliClient } from '../../../src/search/meilisearch/backend'
import { INDEX_SETTINGS } from '../../../src/search/meilisearch/documents'
import { reindex } from '../../../src/search/meilisearch/sync'
import { meilisearchSynonyms } from '../../../src/search/synonyms'
import { req, useTestApp } from '../../support/app'
import { bearer, insertPapers, paperRow } from '../../support/fixtures'
import { startMeiliReplay } from '../../support/meili-replay'
import { SYNONYM_PAPERS } from './synonym-papers'

const meili = startMeiliReplay()
afterAll(() => meili.stop())
const config = { host: meili.url, apiKey: null, index: 'papers' }
const api = useTestApp(() => ({
  search: new MeilisearchSearch(api.database.db, config, () => {}),
  responseCache: null,
}))

const search = async (q: string) => {
  const response = await api.app.handle(
    req(`/api/v1/search?q=${encodeURIComponent(q)}&min_relevance=0`, bearer(api.key)),
  )
  expect(response.status).toBe(200)
  return ((await response.json()).data as { id: string }[]).map((p) => p.id)
}
const searchRequests = () => meili.requests.filter((r) => r.path.endsWith('/search') || r.path === '/multi-search')

beforeAll(async () => {
  await insertPapers(
    api.database.db,
    SYNONYM_PAPERS.map((p) => paperRow(p)),
  )
  await reindex(api.database.db, meiliClient(config), 'papers')
  meili.hits = 'match'
})

describe('the synonyms setting', () => {
  test("the index is given the lexicon's synonyms: p16, sirolimus, NR and their other names", () => {
    const synonyms = meili.settings.synonyms as Record<string, string[]>
    expect(synonyms).toEqual(meilisearchSynonyms())
    expect(synonyms.p16).toEqual(expect.arrayContaining(['CDKN2A', 'p16INK4a']))
    expect(synonyms.sirolimus).toContain('rapamycin')
    expect(synonyms.nr).toContain('nicotinamide riboside')
    // Abbreviations expand when typed, but are never searched for another name: "NR" means many things in a paper.
    expect(synonyms['nicotinamide riboside']).not.toContain('NR')
  })

  test("the sync puts a changed lexicon's synonyms in place without rebuilding the index", async () => {
    meili.settings = { ...meili.settings, synonyms: { sirolimus: ['something old'] } }
    meili.requests.length = 0
    await syncSearchIndex(api.database.db, { meili: config })
    expect(meili.settings.synonyms).toEqual(INDEX_SETTINGS.synonyms)
    expect(meili.requests.some((r) => r.path.startsWith('/indexes/papers_rebuild'))).toBe(false)
    expect(meili.requests.filter((r) => r.method === 'PATCH').map((r) => Object.keys(r.body as object))).toEqual([
      ['synonyms'],
    ])
  })

  test('an index whose synonyms are current is left alone', async () => {
    meili.requests.length = 0
    await syncSearchIndex(api.database.db, { meili: config })
    expect(meili.requests.filter((r) => r.method === 'PATCH')).toEqual([])
  })
})

describe('the same answers as PostgreSQL', () => {
  test('/search?q=p16 finds the papers that name CDKN2A and p16INK4a', async () => {
    expect((await search('p16')).sort()).toEqual(['MED-901', 'MED-902', 'MED-903'])
  })

  test('/search?q=sirolimus finds the papers that say rapamycin, and not temsirolimus', async () => {
    expect((await search('sirolimus')).sort()).toEqual(['MED-904', 'MED-905'])
    // Meilisearch was asked (no fall-back to PostgreSQL), with the query as typed: the index expands it.
    expect((searchRequests().at(-1)?.body as { q: string } | undefined)?.q).toBe('sirolimus')
  })

  test('NR finds nicotinamide riboside, as a whole word only', async () => {
    expect((await search('NR')).sort()).toEqual(['MED-906', 'MED-907'])
    expect(await search('NRF2')).toEqual(['MED-908'])
  })

  test('a name of two words expands too', async () => {
    expect(await search('sirtuin 1')).toEqual(['MED-909'])
  })

  test('quoted and excluded names stay literal', async () => {
    expect(await search('"sirolimus"')).toEqual(['MED-904'])
    const excluded = await search('lifespan -sirolimus')
    expect(excluded).toContain('MED-905')
    expect(excluded).not.toContain('MED-904')
  })
})
