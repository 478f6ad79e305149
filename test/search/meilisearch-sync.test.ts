/**
 * The Meilisearch backend against a local server that answers as Meilisearch does (the real client
 * runs unchanged): the outbox, the search path with its cursor, and the fall-back to PostgreSQL.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { papers, searchOutbox } from '../../src/db/schema'
import { MeilisearchSearch, foldTieBreakers, meiliClient } from '../../src/search/meilisearch/backend'
import type { SearchAfter } from '../../src/search/backend'
import { INDEX_SETTINGS } from '../../src/search/meilisearch/documents'
import { drainOutbox, ensureIndex } from '../../src/search/meilisearch/sync'
import { syncSearchIndex } from '../../src/search'
import { enqueueSearchSync } from '../../src/search/outbox'
import { freshDatabase, type TestDatabase } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'
import { cliWithEnv } from '../support/cli'
import { eventually } from '../support/eventually'
import { DATA_CHANGED } from '../../src/db/changes'
import { startMeiliReplay, type MeiliReplay } from '../support/meili-replay'

let database: TestDatabase
let meili: MeiliReplay

beforeAll(async () => {
  database = await freshDatabase()
  await insertPapers(database.db, [
    paperRow({ id: 'MED-1', title: 'Rapamycin in mice', relevance: 2.5, indexedDate: '2026-10-01' }),
    paperRow({
      id: 'MED-2',
      title: 'Metformin in mice',
      abstract: 'Metformin extended lifespan.',
      relevance: 2.1,
      indexedDate: '2026-10-03',
    }),
    paperRow({ id: 'MED-3', title: 'Rapamycin in worms', relevance: 2.9, indexedDate: '2026-09-01' }),
  ])
})
afterAll(() => database.close())
beforeEach(() => {
  meili = startMeiliReplay()
})
afterEach(() => meili.stop())

const outboxIds = async () => (await database.db.select().from(searchOutbox)).map((r) => r.paperId)

describe('the search outbox', () => {
  test('a rolled-back change leaves nothing queued', async () => {
    await database.db
      .transaction(async (tx) => {
        await enqueueSearchSync(tx, ['MED-1'])
        tx.rollback()
      })
      .catch(() => {})
    expect(await outboxIds()).toEqual([])
  })

  test('sends current rows, deletes papers gone, and empties the outbox', async () => {
    await enqueueSearchSync(database.db, ['MED-1', 'MED-2', 'MED-1', 'MED-404'])
    const client = meiliClient({ host: meili.url, apiKey: null, index: 'papers' })
    expect(await drainOutbox(database.db, client, 'papers')).toEqual({ upserted: 2, deleted: 1 })
    expect([...meili.documents.keys()].sort()).toEqual(['MED-1', 'MED-2'])
    expect(meili.documents.get('MED-1')).toMatchObject({
      title: 'Rapamycin in mice',
      relevance: 2.5,
      indexed_day: 20261001,
    })
    const deletion = meili.requests.find((r) => r.path.endsWith('/documents/delete-batch'))
    expect(deletion?.body).toEqual(['MED-404'])
    expect(await outboxIds()).toEqual([])
  })

  test('keeps the queue while Meilisearch is down or refuses the batch', async () => {
    await enqueueSearchSync(database.db, ['MED-3'])
    const down = meiliClient({ host: 'http://127.0.0.1:9', apiKey: null, index: 'papers', timeoutMs: 500 })
    await expect(drainOutbox(database.db, down, 'papers')).rejects.toThrow()
    expect(await outboxIds()).toEqual(['MED-3'])

    meili.failTasks = 'invalid document'
    const refusing = meiliClient({ host: meili.url, apiKey: null, index: 'papers' })
    await expect(drainOutbox(database.db, refusing, 'papers')).rejects.toThrow('invalid document')
    expect(await outboxIds()).toEqual(['MED-3'])

    meili.failTasks = null
    expect(await drainOutbox(database.db, refusing, 'papers')).toEqual({ upserted: 1, deleted: 0 })
    expect(await outboxIds()).toEqual([])
  })
})

describe('searching through Meilisearch', () => {
  const request = (q: string, after: SearchAfter | null = null) => ({
    q,
    filters: { minRelevance: 2 },
    limit: 1,
    after,
  })

  test('pages by (score, id) over Meilisearch ranking, with rows from the database', async () => {
    meili.hits = [
      { id: 'MED-3', relevance: 2.9, indexed_day: 20260901, _rankingScore: 0.95 },
      { id: 'MED-1', relevance: 2.5, indexed_day: 20261001, _rankingScore: 0.95 },
      { id: 'MED-404', relevance: 2.5, indexed_day: 20261001, _rankingScore: 0.5 }, // deleted since indexed
    ]
    const search = new MeilisearchSearch(database.db, { host: meili.url, apiKey: null, index: 'papers' })
    const first = (await search.search(request('rapamycin'))).hits
    // Equal text scores fall to relevance: MED-3 (2.9) before MED-1 (2.5).
    expect(first.map((h) => h.id)).toEqual(['MED-3', 'MED-1'])
    expect(first[0].title).toBe('Rapamycin in worms')
    expect(first[0].score).toBe(foldTieBreakers(0.95, 2.9, 20260901))
    const second = (
      await search.search(
        request('rapamycin', { score: first[0].score, id: 'MED-3', rank: 1, rankedBy: 'meilisearch' }),
      )
    ).hits
    expect(second.map((h) => h.id)).toEqual(['MED-1'])
    expect(second[0].rank).toBe(2)
    const body = meili.requests.find((r) => r.path === '/indexes/papers/search')?.body as Record<string, unknown>
    expect(body).toMatchObject({ q: 'rapamycin', filter: ['relevance >= 2'], showRankingScore: true })
  })

  test('an OR query is one federated multi-search, one query per alternative as PostgreSQL reads it', async () => {
    meili.hits = [{ id: 'MED-2', relevance: 2.1, indexed_day: 20261003, _rankingScore: 0.9 }]
    const search = new MeilisearchSearch(database.db, { host: meili.url, apiKey: null, index: 'papers' })
    expect((await search.search(request('rapamycin mice OR metformin -worms'))).hits.map((h) => h.id)).toEqual([
      'MED-2',
    ])
    const body = meili.requests.find((r) => r.path === '/multi-search')?.body as {
      queries: { q: string; matchingStrategy: string }[]
    }
    // ('rapamycin' & 'mice') | ('metformin' & !'worm'): AND binds tighter, the exclusion is the second alternative's;
    // mice is also read as mouse (geroscope_variants).
    expect(body.queries.map((q) => q.q)).toEqual(['rapamycin mice', 'rapamycin mouse', 'metformin -worms'])
    expect(body.queries.map((q) => q.matchingStrategy)).toEqual(['all', 'all', 'all'])
  })

  test('stop words are left out, as PostgreSQL leaves them out', async () => {
    const search = new MeilisearchSearch(database.db, { host: meili.url, apiKey: null, index: 'papers' })
    await search.search(request('the effect of rapamycin OR the'))
    const body = meili.requests.find((r) => r.path === '/indexes/papers/search')?.body as Record<string, unknown>
    expect(body).toMatchObject({ q: 'effect rapamycin', matchingStrategy: 'all' })
  })

  test('falls back to PostgreSQL, with a log line, when Meilisearch cannot be reached', async () => {
    const logged: string[] = []
    const search = new MeilisearchSearch(
      database.db,
      { host: 'http://127.0.0.1:9', apiKey: null, index: 'papers', timeoutMs: 500 },
      (line) => logged.push(line),
    )
    const { hits } = await search.search({ q: 'rapamycin', filters: { minRelevance: 2 }, limit: 10, after: null })
    expect(hits.map((h) => h.id).sort()).toEqual(['MED-1', 'MED-3'])
    expect(logged.join('\n')).toContain('answering from PostgreSQL')
  })

  // PostgreSQL can always answer, so no Meilisearch failure is the reader's problem: before the
  // first sync there is no index, and a rotated key is refused until the configuration catches up.
  test.each([
    ['no index yet (404 index_not_found)', 404, 'index_not_found', 'rapamycin'],
    ['no index yet, in a multi-search', 404, 'index_not_found', 'rapamycin OR worms'],
    ['a missing key (401)', 401, 'missing_authorization_header', 'rapamycin'],
    ['a refused key (403)', 403, 'invalid_api_key', 'rapamycin'],
    ['index settings older than the request (400)', 400, 'invalid_search_filter', 'rapamycin'],
    ['a broken server (500)', 500, 'internal', 'rapamycin'],
  ])('falls back to PostgreSQL, with a log line, on %s', async (_name, status, code, q) => {
    meili.failSearches = { status, code, message: 'refused by the stand-in' }
    const logged: string[] = []
    const search = new MeilisearchSearch(database.db, { host: meili.url, apiKey: 'key', index: 'papers' }, (line) =>
      logged.push(line),
    )
    const { hits } = await search.search({ q, filters: { minRelevance: 2 }, limit: 10, after: null })
    expect(hits.map((h) => h.id).sort()).toEqual(['MED-1', 'MED-3'])
    expect(logged).toEqual([expect.stringContaining(`HTTP ${status} ${code}`)])
    expect(logged[0]).toContain('answering from PostgreSQL')
  })

  test('a paper changed in the database shows as it is now', async () => {
    await database.db.update(papers).set({ title: 'Rapamycin in old mice' }).where(eq(papers.id, 'MED-1'))
    meili.hits = [{ id: 'MED-1', relevance: 2.5, indexed_day: 20261001, _rankingScore: 0.8 }]
    const search = new MeilisearchSearch(database.db, { host: meili.url, apiKey: null, index: 'papers' })
    expect((await search.search(request('rapamycin'))).hits[0].title).toBe('Rapamycin in old mice')
  })
})

describe('the index', () => {
  test('is created with its primary key, then given its settings', async () => {
    await ensureIndex(meiliClient({ host: meili.url, apiKey: null, index: 'papers' }), 'papers')
    expect(meili.requests.filter((r) => !r.path.startsWith('/tasks/'))).toEqual([
      { method: 'POST', path: '/indexes', body: { uid: 'papers', primaryKey: 'id' } },
      { method: 'PATCH', path: '/indexes/papers/settings', body: JSON.parse(JSON.stringify(INDEX_SETTINGS)) },
    ])
  })
})

describe('cli search reindex', () => {
  test('rebuilds the index from every paper, swaps it in and clears the outbox it covered', async () => {
    await enqueueSearchSync(database.db, ['MED-1'])
    const result = await cliWithEnv(database, { MEILI_HOST: meili.url, MEILI_INDEX: 'papers' }, 'search', 'reindex')
    expect(result.stderr.filter((l) => l.startsWith('error'))).toEqual([])
    expect(result.code).toBe(0)
    expect(result.stdout).toEqual(['search index "papers" rebuilt with 3 papers'])
    expect([...meili.documents.keys()].sort()).toEqual(['MED-1', 'MED-2', 'MED-3'])
    const settings = meili.requests.filter((r) => r.path.endsWith('/settings'))
    expect(settings.map((r) => [r.path, r.body])).toEqual([
      ['/indexes/papers_rebuild/settings', JSON.parse(JSON.stringify(INDEX_SETTINGS))],
      ['/indexes/papers/settings', JSON.parse(JSON.stringify(INDEX_SETTINGS))],
    ])
    const swap = meili.requests.find((r) => r.path === '/swap-indexes')?.body
    expect(swap).toEqual([{ indexes: ['papers', 'papers_rebuild'], rename: false }])
    expect(await outboxIds()).toEqual([])
  })

  test('tells every API process to drop the answers of the index it replaced, even with nothing queued', async () => {
    expect(await outboxIds()).toEqual([])
    const heard: string[] = []
    const stop = await database.listen(DATA_CHANGED, (table) => heard.push(table))
    try {
      const result = await cliWithEnv(database, { MEILI_HOST: meili.url, MEILI_INDEX: 'papers' }, 'search', 'reindex')
      expect(result.code).toBe(0)
      expect(await eventually(async () => heard.includes('search_outbox'))).toBe(true)
    } finally {
      await stop()
    }
  })

  test('says there is nothing to rebuild without MEILI_HOST', async () => {
    const result = await cliWithEnv(database, {}, 'search', 'reindex')
    expect(result.code).toBe(1)
    expect(result.stderr).toEqual(['error: MEILI_HOST is not set: PostgreSQL full-text search needs no index rebuild'])
  })
})

describe('the search-sync worker job', () => {
  const config = () => ({ meili: { host: meili.url, apiKey: null, index: 'papers' } })

  test('builds an empty index in full, then sends only queued changes', async () => {
    expect(await syncSearchIndex(database.db, config())).toEqual({ reindexed: 3 })
    expect(meili.documents.size).toBe(3)
    await enqueueSearchSync(database.db, ['MED-2'])
    expect(await syncSearchIndex(database.db, config())).toEqual({ upserted: 1, deleted: 0 })
  })

  // An index an older version built searched keywords and MeSH and ranked 300 hits: its documents
  // hold what search no longer matches, so it is rebuilt, with today's settings.
  test('rebuilds an index an older version set up, then sends only queued changes', async () => {
    meili.documents.set('MED-1', {
      id: 'MED-1',
      title: 'Rapamycin in mice',
      keywords: ['zebrafish'],
      mesh: ['Sirtuins'],
      abstract: '',
      indexed_day: 20261001,
    })
    meili.settings = {
      ...INDEX_SETTINGS,
      searchableAttributes: ['title', 'keywords', 'mesh', 'abstract'],
      pagination: { maxTotalHits: 300 },
    }
    expect(await syncSearchIndex(database.db, config())).toEqual({ reindexed: 3 })
    expect(meili.settings).toMatchObject({
      searchableAttributes: ['title', 'abstract'],
      pagination: { maxTotalHits: INDEX_SETTINGS.pagination.maxTotalHits },
    })
    expect(meili.documents.get('MED-1')).not.toHaveProperty('keywords')
    expect(await syncSearchIndex(database.db, config())).toEqual({ upserted: 0, deleted: 0 })
  })

  // An index built before documents carried published_day cannot filter on it: it is rebuilt with it.
  test('rebuilds an index whose documents have no publication day', async () => {
    meili.settings = {
      ...INDEX_SETTINGS,
      filterableAttributes: ['relevance', 'indexed_day', 'study_type', 'topic', 'preprint'],
    }
    expect(await syncSearchIndex(database.db, config())).toEqual({ reindexed: 3 })
    expect((meili.settings as { filterableAttributes: string[] }).filterableAttributes).toContain('published_day')
    expect([...meili.documents.values()].some((d) => 'published_day' in d)).toBe(true)
    expect(await syncSearchIndex(database.db, config())).toEqual({ upserted: 0, deleted: 0 })
  })

  test('does nothing without Meilisearch', async () => {
    expect(await syncSearchIndex(database.db, { meili: null })).toEqual({})
  })
})
