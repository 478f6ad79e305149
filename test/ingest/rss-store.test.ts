import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { rssSources } from '../../src/db/schema'
import type { FeedArticle } from '../../src/pipeline/ingest/rss/article'
import { storeArticles } from '../../src/pipeline/ingest/rss/store'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'

let database: TestDatabase
let sourceId: number
beforeAll(async () => {
  database = await freshDatabase()
  ;[{ id: sourceId }] = await database.db
    .insert(rssSources)
    .values({ name: 'big', url: 'https://big.test/feed' })
    .returning({ id: rssSources.id })
})
afterAll(async () => {
  await database.close()
})

const article = (n: number): FeedArticle => ({
  guid: `urn:big:${n}`,
  link: `https://big.test/a/${n}`,
  doi: `10.5555/big.${n}`,
  title: `Article ${n}`,
  summary: null,
  author: null,
  publishedAt: null,
})

describe(`storeArticles on ${testDriver}`, () => {
  // 25,000 rows of 9 values are 225,000 parameters in one insert, and 75,000 in a look-up by
  // guid, link and DOI: both far beyond PostgreSQL's 65,535 per statement.
  test('stores a feed of 25,000 new articles, linking those whose DOI is a paper, and knows them all the next time', async () => {
    await insertPapers(database.db, [
      paperRow({ id: 'MED-7', doi: '10.5555/big.7' }),
      paperRow({ id: 'MED-24999', doi: '10.5555/big.24999' }),
    ])
    const items = Array.from({ length: 25_000 }, (_, n) => article(n))
    expect(await storeArticles(database.db, sourceId, items)).toEqual({ added: 25_000, linked: 2 })
    expect(await storeArticles(database.db, sourceId, items)).toEqual({ added: 0, linked: 0 })
    const [row] = await database.rows<{ n: number; linked: number }>(
      sql`select count(*)::int as n, count(paper_id)::int as linked from articles`,
    )
    expect(row).toEqual({ n: 25_000, linked: 2 })
  })
})
