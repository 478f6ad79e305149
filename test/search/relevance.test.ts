/**
 * The relevance set (relevance-set.json): for each query over the demo corpus, the papers a reader
 * expects first must be among the top 5 hits of the default backend, with the API's defaults.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { PostgresSearch } from '../../src/search/postgres'
import { seedDemo } from '../../src/seed/demo'
import { freshDatabase, type TestDatabase } from '../support/database'
import relevanceSet from './relevance-set.json'

type Case = { q: string; expect: 'all_in_top_5' | 'top_5_among'; papers: string[]; rule: string }

let database: TestDatabase
let search: PostgresSearch

beforeAll(async () => {
  database = await freshDatabase()
  await seedDemo(database, '2026-11-21')
  search = new PostgresSearch(database.db)
})
afterAll(() => database.close())

describe('relevance set', () => {
  test('holds at least 40 queries', () => {
    expect(relevanceSet.queries.length).toBeGreaterThanOrEqual(40)
  })

  test.each((relevanceSet.queries as Case[]).map((c) => [c.q, c] as const))('%s', async (_q, c) => {
    const { hits } = await search.search({ q: c.q, filters: { minRelevance: 2 }, limit: 5, after: null })
    const top5 = hits.slice(0, 5).map((h) => h.id)
    if (c.expect === 'all_in_top_5') expect(top5).toEqual(expect.arrayContaining(c.papers))
    else for (const id of top5) expect(c.papers).toContain(id)
  })
})
