/**
 * The search migration (drizzle/*_search_title_abstract_folding.sql) on a database that already has papers: a generated column does
 * not follow a changed function, so the migration must rebuild the stored vectors, and the indexes
 * search walks must be there again afterwards.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import type { Database } from '../../src/db/client'
import { testDriver } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'
import { databaseBefore, type OlderDatabase } from '../support/older-database'

const BEFORE = '_search_title_abstract_folding' // the migration's name, whatever its number
let older: OlderDatabase
let database: Database

beforeAll(async () => {
  older = await databaseBefore(BEFORE, 'search_migration')
  database = older.database
  // Papers written before the migration: vectors with keywords and MeSH, and a slash read as a path.
  await insertPapers(database.db, [
    paperRow({
      id: 'MED-1',
      title: 'The NADH/NAD+ ratio in old mice',
      abstract: 'Measured in the liver.',
      keywords: ['zebrafish'],
      meshHeadings: [{ descriptor: 'Sirtuins', major: true, qualifiers: [] }],
    }),
    paperRow({ id: 'MED-2', title: 'Tumour growth', abstract: 'AMPK/mTOR signalling.' }),
  ])
})
afterAll(async () => {
  await older.close()
})

const lexemes = async (column: 'search_vector' | 'title_vector', id: string) =>
  (
    await database.rows<{ l: string[] }>(
      sql`select tsvector_to_array(${sql.raw(column)}) as l from papers where id = ${id}`,
    )
  )[0].l

describe(`the search migration on a ${testDriver} database with papers`, () => {
  test('before it, the stored vectors hold keywords and MeSH, and the slash reads as one word', async () => {
    expect(await lexemes('search_vector', 'MED-1')).toEqual(
      expect.arrayContaining(['zebrafish', 'sirtuin', 'nadh/nad']),
    )
  })

  test('rebuilds every stored vector and the search indexes', async () => {
    await older.migrateRest()
    const search = await lexemes('search_vector', 'MED-1')
    expect(search).not.toContain('zebrafish')
    expect(search).not.toContain('sirtuin')
    expect(search).toEqual(expect.arrayContaining(['nadh', 'nad', 'mice', 'liver']))
    expect(await lexemes('title_vector', 'MED-1')).toEqual(['mice', 'nad', 'nadh', 'old', 'ratio'])
    expect(await lexemes('search_vector', 'MED-2')).toEqual(expect.arrayContaining(['ampk', 'mtor', 'tumour']))
    const indexes = await database.rows<{ indexname: string; indexdef: string }>(
      sql`select indexname, indexdef from pg_indexes where tablename = 'papers' and indexname in ('papers_search_idx', 'papers_title_search_idx', 'papers_relevance_idx') order by 1`,
    )
    expect(indexes.map((i) => i.indexname)).toEqual([
      'papers_relevance_idx',
      'papers_search_idx',
      'papers_title_search_idx',
    ])
    expect(indexes[0].indexdef).toContain('INCLUDE (title_vector)')
    const [storage] = await database.rows<{ attstorage: string }>(
      sql`select attstorage from pg_attribute where attrelid = 'papers'::regclass and attname = 'search_vector'`,
    )
    expect(storage.attstorage).toBe('m')
  })

  test('after it, the papers are found by what their title and abstract say, in every spelling', async () => {
    const hits = async (q: string) =>
      (
        await database.rows<{ id: string }>(
          sql`select id from papers where search_vector @@ geroscope_tsquery(${q}) order by id`,
        )
      ).map((r) => r.id)
    expect(await hits('mouse')).toEqual(['MED-1'])
    expect(await hits('NAD+')).toEqual(['MED-1'])
    expect(await hits('tumor')).toEqual(['MED-2'])
    expect(await hits('mTOR')).toEqual(['MED-2'])
    expect(await hits('zebrafish')).toEqual([])
  })
})
