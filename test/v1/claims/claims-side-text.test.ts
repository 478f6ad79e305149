/**
 * A side filter's text matches over a few thousand claims, where how they are found depends on how many claims
 * hold the text (src/resources/claims/queries.ts, sideText): a common text from a scout of the newest claims, a text one
 * claim in seven holds from a longer walk, a rare one from its trigram index; the unresolved sides of a value
 * naming an entity from their own indexes (drizzle/0017 and 0022). Whichever path a page takes, it holds the
 * newest matches, in order, and the pages join up.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { freshDatabase, type TestDatabase } from '../../support/database'
import { createTestKey, insertPapers, paperRow } from '../../support/fixtures'
import { getter, insertCountedEntity, knowledgeApp, walk } from '../../support/fixtures-knowledge'

let database: TestDatabase
let key: string
let get: ReturnType<typeof getter>

const CLAIMS = 2_200
// Claim n is made n seconds after the first.
const RARE = [3, 150, 2_150] // a text matched by two old claims and one new one
const UNRESOLVED_NAMING = [20, 90, 2_190] // unresolved sides whose text holds the entity's name
const EVERY_SEVENTH = (n: number) => n % 7 === 0 && !RARE.includes(n) && !UNRESOLVED_NAMING.includes(n)
const SEVENTHS = Array.from({ length: CLAIMS }, (_, i) => CLAIMS - i).filter(EVERY_SEVENTH) // newest first

beforeAll(async () => {
  database = await freshDatabase()
  const db = database.db
  get = getter(await knowledgeApp(database), () => key)
  key = (await createTestKey(db, { tier: 'pro' })).key
  await insertPapers(db, [paperRow({ id: 'MED-901' })])
  const rapamycin = await insertCountedEntity(db, 'intervention', 'CHEBI:9168', 'rapamycin', 1)
  await db.execute(sql`insert into claims (paper_id, subject_text, subject_entity_id, relation, object_text, created_at)
    select 'MED-901',
      case when n in (${sql.join(
        RARE.map((n) => sql`${n}::int`),
        sql`, `,
      )}) then 'loss of IKBKB' when n in (${sql.join(
        UNRESOLVED_NAMING.map((n) => sql`${n}::int`),
        sql`, `,
      )}) then 'low-dose rapamycin'
        when n % 7 = 0 then 'senolytic therapy' else 'caloric restriction' end,
      case when n % 500 = 0 then ${rapamycin.id}::int end,
      case when n % 49 = 0 then 'decreases' else 'increases' end, 'lifespan', timestamptz '2026-10-01 00:00:00+00' + n * interval '1 second'
    from generate_series(1, ${CLAIMS}::int) n`)
  // The path a text takes weighs the share of a scout's claims holding it against how many claims the trigram
  // index holds, as PostgreSQL counted them: counted here, as a database that has run does.
  await db.execute(sql`analyze claims`)
})
afterAll(async () => {
  await database.close()
})

const when = (body: { data: { created_at: string }[] }) =>
  body.data.map((c) => (Date.parse(c.created_at) - Date.parse('2026-10-01T00:00:00Z')) / 1000)

describe('GET /api/v1/claims with a side filter over thousands of claims', () => {
  test('a rare text gives its matches newest first, the old ones too', async () => {
    for (const limit of [1, 2, 25]) {
      const pages = await walk(get, `/api/v1/claims?subject=ikbkb&limit=${limit}`)
      expect(pages.flatMap(when)).toEqual([2_150, 150, 3])
    }
  })

  test('a common text gives its newest matches first, and every other in order', async () => {
    const first = (await get('/api/v1/claims?subject=caloric&limit=3')).body
    expect(when(first)).toEqual([2_200, 2_199, 2_197]) // 2,198 is one in seven
    const deep = (await walk(get, '/api/v1/claims?subject=caloric&limit=100')).flatMap(when)
    expect(deep).toHaveLength(CLAIMS - RARE.length - UNRESOLVED_NAMING.length - SEVENTHS.length)
    expect(deep).toEqual([...deep].sort((a, b) => b - a))
  })

  test('a text one claim in seven holds gives every match newest first, at every page size', async () => {
    for (const limit of [1, 25, 100]) {
      const pages = await walk(get, `/api/v1/claims?subject=senolytic&limit=${limit}`)
      expect(pages.flatMap(when)).toEqual(SEVENTHS)
    }
  })

  test('a side text with another filter gives the matches that pass it, however few', async () => {
    for (const limit of [1, 25]) {
      const pages = await walk(get, `/api/v1/claims?subject=senolytic&relation=decreases&limit=${limit}`)
      expect(pages.flatMap(when)).toEqual(SEVENTHS.filter((n) => n % 49 === 0))
    }
    // Every claim one in 49 is one in seven too: no caloric restriction claim decreases anything.
    expect((await get('/api/v1/claims?subject=caloric&relation=decreases')).body.data).toEqual([])
  })

  test('a value naming an entity gives its claims and the unresolved sides holding its name, newest first', async () => {
    // The entity's claims are 500, 1,000, 1,500 and 2,000; the unresolved sides naming it 20, 90 and 2,190.
    for (const limit of [1, 3, 25]) {
      const pages = await walk(get, `/api/v1/claims?subject=rapamycin&limit=${limit}`)
      expect(pages.flatMap(when)).toEqual([2_190, 2_000, 1_500, 1_000, 500, 90, 20])
    }
  })
})
