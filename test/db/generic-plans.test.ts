/**
 * The Data API's page statements are planned once per connection (src/queries/prepared.ts,
 * `genericPlan`), with their row limits written as literals (`$limit`), so PostgreSQL does not spend
 * a plan's worth of CPU on every page. Statements not marked keep PostgreSQL's own rule.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openDatabase, type Database } from '../../src/db/client'
import { listPapers } from '../../src/resources/papers/queries'
import { preparedStatement } from '../../src/queries/prepared'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'

const onPostgres = testDriver === 'postgres'
const hasNativeClient = typeof (globalThis as { Bun?: { SQL?: unknown } }).Bun?.SQL === 'function'
if (!onPostgres) console.log('generic-plan tests left out: they need PostgreSQL (run with DATABASE_URL; CI does)')

const numbers = preparedStatement<{ g: number }>('select g from generate_series(1, $?::int) g order by g limit $limit')
const twice = preparedStatement<{
  g: number
}>(`select g from (select g from generate_series(1, 200) g order by g limit $limit) s
  order by g limit $limit`)

describe('row limits written as literals ($limit)', () => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await freshDatabase()
  })
  afterAll(async () => {
    await database.close()
  })

  test('every limit gives exactly its rows, first ones first, whatever step the text was written with', async () => {
    for (const limit of [0, 1, 2, 3, 10, 11, 12, 25, 26, 27, 50, 51, 52, 100, 101, 102, 150]) {
      const rows = await numbers(database.db, [120, limit])
      expect({ limit, got: rows.map((r) => r.g) }).toEqual({
        limit,
        got: Array.from({ length: Math.min(limit, 120) }, (_, i) => i + 1),
      })
    }
  })

  test('a statement with several $limit takes one page size for all of them', async () => {
    expect((await twice(database.db, [30, 30])).map((r) => r.g)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1))
    await expect(twice(database.db, [30, 31])).rejects.toThrow(
      "a statement's $limit values must be one whole number, not 30, 31",
    )
    await expect(numbers(database.db, [5, 2.5])).rejects.toThrow('must be one whole number, not 2.5')
  })
})

describe.skipIf(!onPostgres || !hasNativeClient)('statements planned once', () => {
  let database: TestDatabase
  let one: Database
  const texts: string[] = []
  beforeAll(async () => {
    database = await freshDatabase()
    await insertPapers(
      database.db,
      Array.from({ length: 40 }, (_, i) =>
        paperRow({
          id: `MED-${100 + i}`,
          indexedDate: `2026-09-${String(1 + (i % 28)).padStart(2, '0')}`,
          relevance: 2 + (i % 2),
        }),
      ),
    )
    // One connection per pool, so a statement run twice meets its own prepared statement.
    one = await openDatabase({ kind: 'postgres', url: database.url!, max: 1, onQuery: (text) => texts.push(text) })
  })
  afterAll(async () => {
    await one?.close()
    await database?.close()
  })

  const setting = "select current_setting('plan_cache_mode') as mode"
  const planMode = {
    generic: preparedStatement<{ mode: string }>(setting, { genericPlan: true }),
    own: preparedStatement<{ mode: string }>(setting),
  }

  test('marked statements run where plans are generic; the others where PostgreSQL chooses', async () => {
    expect((await planMode.generic(one.db, []))[0].mode).toBe('force_generic_plan')
    expect((await planMode.own(one.db, []))[0].mode).toBe('auto')
  })

  test('a page of papers is planned once, with its limit in the text, and pages the same as before', async () => {
    const seen: string[] = []
    for (let i = 0; i < 8; i++)
      seen.push((await listPapers(one.db, { minRelevance: 2 }, 25, null)).map((p) => p.id).join())
    expect(new Set(seen).size).toBe(1)
    expect(seen[0].split(',').length).toBe(26)
    const page = texts.find((t) => t.includes('order by p.indexed_date desc, p.id asc'))!
    expect(page).toContain('limit 26')
    expect(page).not.toContain('$limit')
    const plans = preparedStatement<{ generic: number; custom: number }>(
      `select generic_plans::int as generic, custom_plans::int as custom
      from pg_prepared_statements where statement like '%order by p.indexed_date desc, p.id asc limit 26%'`,
      { genericPlan: true },
    )
    const [counts] = await plans(one.db, [])
    expect(counts.custom).toBe(0)
    expect(counts.generic).toBeGreaterThanOrEqual(8)
    // limit=30 reads up to the next step (51) and gives 31 rows: the same 31 as a walk of them all.
    const all = (await listPapers(one.db, { minRelevance: 2 }, 100, null)).map((p) => p.id)
    expect((await listPapers(one.db, { minRelevance: 2 }, 30, null)).map((p) => p.id)).toEqual(all.slice(0, 31))
  })
})
