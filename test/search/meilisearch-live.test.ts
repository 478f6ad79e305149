/**
 * The Meilisearch backend against a real Meilisearch, when MEILI_HOST names one (CI here has none;
 * the README says so). Uses its own index, removed afterwards.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { MeilisearchSearch, meiliClient } from '../../src/search/meilisearch/backend'
import { reindex } from '../../src/search/meilisearch/sync'
import { freshDatabase, type TestDatabase } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'

const host = process.env.MEILI_HOST?.trim()
if (!host) console.log('Meilisearch tests left out: MEILI_HOST is not set (CI here has no Meilisearch)')

describe.skipIf(!host)('Meilisearch backend on a real server', () => {
  const config = {
    host: host!,
    apiKey: process.env.MEILI_API_KEY?.trim() || null,
    index: `geroscope_test_${process.pid}`,
  }
  let database: TestDatabase
  let search: MeilisearchSearch

  beforeAll(async () => {
    database = await freshDatabase()
    await insertPapers(database.db, [
      paperRow({
        id: 'MED-1',
        title: 'GLP-1 agonists slow epigenetic aging',
        abstract: 'Semaglutide in older adults.',
        relevance: 2.5,
      }),
      paperRow({
        id: 'MED-2',
        title: 'Rapamycin in mice',
        abstract: 'mTORC1 inhibition extended lifespan.',
        relevance: 2.8,
      }),
      paperRow({ id: 'MED-3', title: 'Metformin in worms', abstract: 'Lifespan of C. elegans rose.', relevance: 1.5 }),
    ])
    await reindex(database.db, meiliClient(config), config.index)
    search = new MeilisearchSearch(database.db, config)
  })
  afterAll(async () => {
    await meiliClient(config).deleteIndex(config.index).waitTask()
    await database.close()
  })

  const ids = async (q: string, minRelevance = 2) =>
    (await search.search({ q, filters: { minRelevance }, limit: 10, after: null })).hits.map((h) => h.id)

  test('finds GLP-1 as GLP1 and ranks with scores in [0, 1)', async () => {
    expect(await ids('GLP1')).toEqual(['MED-1'])
    const [hit] = (await search.search({ q: 'rapamycin', filters: { minRelevance: 2 }, limit: 1, after: null })).hits
    expect(hit.score).toBeGreaterThan(0)
    expect(hit.score).toBeLessThan(1)
  })

  test('applies filters, phrases, OR and exclusions', async () => {
    expect(await ids('lifespan')).toEqual(['MED-2'])
    expect((await ids('lifespan', 0)).sort()).toEqual(['MED-2', 'MED-3'])
    expect((await ids('rapamycin OR semaglutide')).sort()).toEqual(['MED-1', 'MED-2'])
    expect(await ids('lifespan -rapamycin', 0)).toEqual(['MED-3'])
    expect(await ids('"extended lifespan"')).toEqual(['MED-2'])
  })
})
