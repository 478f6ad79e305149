/**
 * The migration to per-source articles (drizzle/*_article_copies_per_source.sql) on a database
 * with rows written before it: articles keep their ids and text, a DOI two sources stored makes the
 * later one a copy, and job runs recorded "ok" although they went on past failures become partial.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { databaseBefore, type OlderDatabase } from '../support/older-database'
import { testDriver } from '../support/database'

let older: OlderDatabase
const rows = <T>(query: ReturnType<typeof sql>) => older.database.rows<T>(query)

beforeAll(async () => {
  older = await databaseBefore('_article_copies_per_source', 'article_copies')
  await rows(sql`insert into rss_sources (id, name, url) values
    (1, 'A', 'https://a.test/feed'), (2, 'B', 'https://b.test/feed')`)
  await rows(sql`insert into articles (id, source_id, guid, link, doi, title) values
    (1, 1, 'a:1', 'https://a.test/1', '10.1/x', 'First by DOI'),
    (2, 2, 'b:1', 'https://b.test/1', '10.1/x', 'Same DOI, other source'),
    (3, 1, 'a:2', 'https://a.test/2', '10.1/y', 'Alone'),
    (4, 1, 'a:3', 'https://a.test/3', '10.1/x', 'Same DOI, same source')`)
  await rows(sql`insert into job_runs (id, job, outcome, finished_at, counts) values
    (1, 'analyze', 'ok', now(), '{"papers": 369, "failed": 131, "articles": 2, "articles_failed": 1}'),
    (2, 'scrape', 'ok', now(), '{"sources": 3, "failed": 0}'),
    (3, 'harvest', 'failed', now(), '{}'),
    (4, 'scrape', 'ok', now(), '{"sources": 3, "failed": 1}')`)
  await older.migrateRest()
})
afterAll(async () => {
  await older.close()
})

describe(`the per-source articles migration on a ${testDriver} database with rows`, () => {
  test('keeps every article and its text; a DOI another source stored first makes a copy', async () => {
    expect(await rows(sql`select id, title, copy_of from articles order by id`)).toEqual([
      { id: 1, title: 'First by DOI', copy_of: null },
      { id: 2, title: 'Same DOI, other source', copy_of: 1 },
      { id: 3, title: 'Alone', copy_of: null },
      { id: 4, title: 'Same DOI, same source', copy_of: 2 }, // the first row of another source with its DOI
    ])
  })

  test('a source may now hold a link another source holds, never one it holds itself', async () => {
    const insert = (id: number) =>
      rows(sql`insert into articles (id, source_id, link, title)
      values (${id}, 2, 'https://a.test/1', 'B names the link of A')`)
    await insert(10)
    await expect(insert(11)).rejects.toThrow()
  })

  test('runs recorded ok with failures are partial, with what failed; the rest are untouched', async () => {
    expect(await rows(sql`select id, outcome, error from job_runs order by id`)).toEqual([
      { id: 1, outcome: 'partial', error: 'the run went on past 132 failures (failed 131, articles_failed 1)' },
      { id: 2, outcome: 'ok', error: null },
      { id: 3, outcome: 'failed', error: null },
      { id: 4, outcome: 'partial', error: 'the run went on past 1 failure (failed 1)' },
    ])
  })
})
