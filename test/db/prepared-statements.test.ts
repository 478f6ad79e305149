/**
 * Prepared statements cost memory on every connection for as long as it lives (postgres.js never
 * drops one): the texts must come from a few shapes, and their number must be bounded.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { drizzle } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import { sql } from 'drizzle-orm'
import { executeRows, preparingStatements, type Db } from '../../src/db/client'
import * as schema from '../../src/db/schema'
import { getEntityDetailPage } from '../../src/resources/entities/queries'
import { listPapers } from '../../src/resources/papers/queries'
import { preparedStatement } from '../../src/queries/prepared'
import { listStories } from '../../src/resources/stories/queries'
import { STUDY_TYPES, TOPICS } from '../../src/taxonomy'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'

// PGlite prepares nothing across queries; the statements live on PostgreSQL connections.
const onPostgres = testDriver === 'postgres'
if (!onPostgres) console.log('prepared-statement tests left out: they need PostgreSQL (run with DATABASE_URL; CI does)')

describe.skipIf(!onPostgres)('prepared statements', () => {
  let database: TestDatabase
  let client: postgres.Sql
  beforeAll(async () => {
    database = await freshDatabase()
    await insertPapers(database.db, [paperRow({ id: 'MED-1', topic: 'senescence', studyType: 'animal', relevance: 3 })])
  })
  afterAll(async () => {
    await client?.end()
    await database?.close()
  })

  /** One connection, so pg_prepared_statements sees every statement the client made; `count` counts ours. */
  function oneConnection(maxTexts?: number): { db: Db; count: () => Promise<number> } {
    client = postgres(database.url!, { max: 1, onnotice: () => {} })
    const db = drizzle(preparingStatements(client, maxTexts), { schema }) as unknown as Db
    const total = async () =>
      (await client.unsafe('select count(*)::int as n from pg_prepared_statements', [], { prepare: false }))[0]
        .n as number
    // postgres.js prepares its own type lookup when it connects: counted from after it.
    const base = total()
    return { db, count: async () => (await total()) - (await base) }
  }

  test('filter lists of every length share one statement', async () => {
    const { db, count } = oneConnection()
    const found: number[] = []
    const animalFirst = ['animal', ...STUDY_TYPES.filter((t) => t !== 'animal')]
    for (let n = 1; n <= TOPICS.length; n++) {
      found.push(
        (
          await listPapers(
            db,
            {
              minRelevance: 2,
              topic: TOPICS.slice(0, n),
              studyType: animalFirst.slice(0, Math.min(n, animalFirst.length)),
            },
            25,
            null,
          )
        ).length,
      )
    }
    expect(found).toEqual(TOPICS.map(() => 1)) // the list still filters: MED-1 is in every one of them
    const afterPapers = await count()
    for (let n = 1; n <= TOPICS.length; n++) await listStories(db, { topic: TOPICS.slice(0, n) }, 25, null)
    for (let n = 1; n <= 10; n++) await getEntityDetailPage(db, 'intervention', `compound-${n}`, 2, 25, null)
    // listPapers: one text, its first window (with one paper, the whole range); listStories: one; the entity's
    // page: one; each list length and key reused them.
    expect(afterPapers).toBe(1)
    expect(await count()).toBe(3)
    await client.end()
  })

  test('past the cap, new texts run unprepared, and still answer', async () => {
    const { db, count } = oneConnection(3)
    const answers: number[] = []
    for (let i = 0; i < 10; i++) {
      const rows = await executeRows<{ n: number }>(db, sql`select ${i}::int + ${sql.raw(String(i))} as n`) // ten texts
      answers.push(rows[0].n)
    }
    expect(answers).toEqual(Array.from({ length: 10 }, (_, i) => 2 * i))
    expect(await count()).toBe(3)
    await executeRows(db, sql`select ${1}::int + 0 as n`) // a prepared text is still reused
    expect(await count()).toBe(3)
  })

  test('a statement planned for its values on every run is never prepared, below the cap too', async () => {
    const { db, count } = oneConnection()
    const planned = preparedStatement<{ id: string }>('select id from papers where id = $? limit $limit', {
      customPlan: true,
    })
    for (let i = 0; i < 7; i++) expect(await planned(db, ['MED-1', 1])).toEqual([{ id: 'MED-1' }])
    expect(await count()).toBe(0)
    // A filtered paper page whose windows hold less than a page of a range longer than them ends on such a statement.
    await insertPapers(
      database.db,
      Array.from({ length: 1_100 }, (_, i) => paperRow({ id: `MED-${1_000 + i}`, topic: 'other' })),
    )
    expect((await listPapers(db, { minRelevance: 2, topic: ['senescence'] }, 25, null)).map((p) => p.id)).toEqual([
      'MED-1',
    ])
    expect(await count()).toBe(2) // its two windows; the range's count has no values, which postgres.js sends unnamed
  })
})
