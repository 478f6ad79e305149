/**
 * Under Bun the primary's prepared statements run on Bun's native client (src/platform/native-postgres.ts).
 * No answer may change a byte for it: the same requests over the same database, through an app on
 * the native client and one on postgres.js alone (DATABASE_NATIVE_CLIENT=off), awkward values
 * included. Its failures must read as postgres.js's do: a server error by its SQLSTATE, a database
 * that cannot be reached as unavailable (the 503 and the breaker), and a lost connection replaced.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { openDatabase, type Database } from '../../src/db/client'
import { isDatabaseUnavailable } from '../../src/db/database-errors'
import { nativePostgres } from '../../src/platform/native-postgres'
import { testApp, req } from '../support/app'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import {
  bearer,
  createTestKey,
  insertClaim,
  insertEntity,
  insertPapers,
  insertStory,
  linkEntity,
  paperRow,
} from '../support/fixtures'

const onPostgres = testDriver === 'postgres'
const hasNativeClient = typeof (globalThis as { Bun?: { SQL?: unknown } }).Bun?.SQL === 'function'
if (!onPostgres) console.log('native-client tests left out: they need PostgreSQL (run with DATABASE_URL; CI does)')

/** A one-connection pool with the service's settings. */
const ONE = { max: 1, connectTimeoutSeconds: 5, settings: { jit: 'off' } }

const awkwardFloats = [0.00001, 1e-7, 0.1 + 0.2, 1 / 3, 5e-324, 1e21, 3, 0, -0]

describe.skipIf(!onPostgres || !hasNativeClient)('prepared statements on the native client', () => {
  let database: TestDatabase // native client (the default)
  let plain: Database // postgres.js only
  let native: Awaited<ReturnType<typeof testApp>>
  let postgresJs: Awaited<ReturnType<typeof testApp>>
  let key: string

  beforeAll(async () => {
    database = await freshDatabase()
    plain = await openDatabase({ kind: 'postgres', url: database.url!, max: 2, nativeClient: false })
    const rows = awkwardFloats.map((x, i) =>
      paperRow({
        id: `MED-${900 + i}`,
        indexedDate: `2026-09-${String(10 + i).padStart(2, '0')}`,
        relevance: 2 + i / 10,
        relevanceConfidence: x,
        promotional: x,
        newsworthiness: i % 2 ? null : x,
        title: `Quote " backslash \\ tab \t newline \n control \u0001 emoji 🧬 é ${i}`,
        abstractLicense: i % 2 ? 'cc by' : null,
        abstract: i % 3 ? `Abstract </script> ${i}` : null,
        publicationTypes: i % 3 ? ['Journal Article', 'Review "x", {y}', 'NULL'] : [],
        publishedDate: i % 4 ? '2026-09-01' : null,
      }),
    )
    rows.push(paperRow({ id: 'PPR-é 1/2?', indexedDate: '2026-09-29', relevance: 2.5, judgedAt: null }))
    await insertPapers(database.db, rows)
    await database.db.execute(sql`update papers set judged_at = '2026-11-23 12:34:56.123987+00' where id = 'MED-901'`)
    for (const row of rows.filter((_, i) => i % 2 === 0))
      await insertStory(database.db, row.id, { headline: `Story "${row.id}" \n` })
    const gene = await insertEntity(database.db, 'gene', 'NCBIGene:2475', 'MTOR "x"', { ncbi: '2475' })
    const drug = await insertEntity(database.db, 'compound', 'CHEBI:9168', 'rapamycin')
    for (const id of ['MED-900', 'MED-901', 'MED-902']) {
      await linkEntity(database.db, id, '2026-09-10', gene.id, 'target', { mention: 'mTOR', score: 1.5 })
      await linkEntity(database.db, id, '2026-09-10', drug.id, 'intervention')
      await insertClaim(database.db, {
        paperId: id,
        subjectEntityId: drug.id,
        objectEntityId: gene.id,
        context: { dose: '1 mg/kg' },
        confidence: 0.00001,
      })
      await insertClaim(database.db, { paperId: id, context: {}, confidence: null })
    }
    native = await testApp(database)
    postgresJs = await testApp(plain)
    key = (await createTestKey(database.db, { tier: 'pro' })).key
  })
  afterAll(async () => {
    await plain?.close()
    await database?.close()
  })

  const answer = async (app: typeof native, path: string) => {
    const response = await app.handle(req(path, bearer(key)))
    return `${response.status} ${response.headers.get('etag')} ${await response.text()}`
  }

  test('every read answers the same bytes on either client', async () => {
    const paths = [
      '/api/v1/papers',
      '/api/v1/papers?min_relevance=0&limit=100',
      '/api/v1/papers?min_relevance=0&limit=3',
      '/api/v1/papers?fields=id,title,judgement',
      '/api/v1/papers?topic=senescence&study_type=animal',
      '/api/v1/stories',
      '/api/v1/stories?limit=2',
      '/api/v1/claims',
      '/api/v1/claims?subject=rapamycin',
      '/api/v1/claims?count=true&group_by=relation',
      '/api/v1/entities',
      '/api/v1/entities/gene/NCBIGene:2475',
      '/api/v1/entities/compound/CHEBI:9168',
      '/api/v1/search?q=quote',
      '/api/v1/papers/MED-404',
      ...[...awkwardFloats.keys()].map((i) => `/api/v1/papers/MED-${900 + i}`),
      `/api/v1/papers/${encodeURIComponent('PPR-é 1/2?')}`,
    ]
    const first = JSON.parse(
      (await answer(native, '/api/v1/papers?min_relevance=0&limit=3')).split(' ').slice(2).join(' '),
    )
    paths.push(`/api/v1/papers?min_relevance=0&limit=3&cursor=${first.pagination.next_cursor}`)
    for (const path of paths) {
      const [a, b] = [await answer(native, path), await answer(postgresJs, path)]
      expect(`${path} ${a}`).toBe(`${path} ${b}`)
    }
    expect(paths.length).toBeGreaterThan(25)
    // The change feed's resume cursor holds the moment it was asked for: its rows must match.
    const changes = async (app: typeof native) =>
      (await (await app.handle(req('/api/v1/changes', bearer(key)))).json()).data
    expect(await changes(native)).toEqual(await changes(postgresJs))
    expect((await changes(native)).length).toBeGreaterThan(10)
  })

  test('the native client is the one serving them', async () => {
    await answer(native, '/api/v1/papers')
    const [{ n }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and application_name = 'geroscope-native'`)
    expect(n).toBeGreaterThan(0)
  })

  test('a statement without values is prepared once on its connection, as one with values is', async () => {
    // Sent by Bun.SQL's unsafe(), it went by the simple protocol: parsed and planned on every run.
    const client = nativePostgres(database.url!, ONE)!
    try {
      const text = 'select 42 as n, count(*)::int as papers from papers where false'
      for (let i = 0; i < 3; i++) expect(await client.run(text, [])).toEqual([{ n: 42, papers: 0 }])
      const prepared = await client.run('select count(*)::int as n from pg_prepared_statements where statement = $1', [
        text,
      ])
      expect(prepared).toEqual([{ n: 1 }])
    } finally {
      await client.close()
    }
  })

  test('a server error carries its SQLSTATE, as from postgres.js', async () => {
    const client = nativePostgres(database.url!, ONE)!
    try {
      const error = (await client.run('select 1 / $1::int', [0]).catch((e: unknown) => e)) as {
        code?: string
        message: string
      }
      expect(error.code).toBe('22012')
      expect(error.message).toBe('division by zero')
      expect(isDatabaseUnavailable(error)).toBe(false)
    } finally {
      await client.close()
    }
  })

  test('a database that cannot be reached is unavailable, and a lost connection is replaced', async () => {
    const nowhere = nativePostgres('postgres://postgres@127.0.0.1:1/none', ONE)!
    const refused = await nowhere.run('select 1', []).catch((e: unknown) => e)
    expect(isDatabaseUnavailable(refused)).toBe(true)
    await nowhere.close()

    const client = nativePostgres(database.url!, ONE)!
    try {
      const [{ pid }] = (await client.run('select pg_backend_pid() as pid', [])) as { pid: number }[]
      await database.rows(sql`select pg_terminate_backend(${pid}::int)`)
      const lost = await client.run('select 1 as n', []).then(
        () => null,
        (e: unknown) => e,
      )
      if (lost) expect(isDatabaseUnavailable(lost)).toBe(true) // the statement that met the closed socket
      expect(await client.run('select 2 as n', [])).toEqual([{ n: 2 }])
    } finally {
      await client.close()
    }
  })
})
