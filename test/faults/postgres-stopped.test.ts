/**
 * PostgreSQL stopped while the service runs, on a cluster of the test's own (never the shared one):
 * every request answers 503 unavailable within a second, none hangs; the service comes back by
 * itself when the server does; a harvest cut off mid-run leaves only whole pages, its run row is
 * closed by the next run, and that run resumes where the cut one stopped.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { asc, eq, sql } from 'drizzle-orm'
import { openDatabase, type Database } from '../../src/db/client'
import { migrateDatabase } from '../../src/db/migrate'
import { jobRuns } from '../../src/db/schema'
import { harvestEuropePmc } from '../../src/pipeline/ingest/europepmc/harvest'
import { ABANDONED_RUN } from '../../src/jobs/job-runs'
import { runJob } from '../../src/jobs/run-job'
import { req, testApp } from '../support/app'
import { testDriver } from '../support/database'
import { bearer, createTestKey, insertPapers, paperRow } from '../support/fixtures'
import { OwnCluster, ownClusterSupport } from '../support/own-cluster'
import { replayServer, type ReplayServer } from '../support/replay-server'

// Run with the PostgreSQL suite (the cluster is the test's own either way, but one run is enough).
const leftOut = testDriver !== 'postgres' ? 'they run with the PostgreSQL suite (DATABASE_URL)' : ownClusterSupport()
if (leftOut) console.log(`PostgreSQL-stopped fault tests left out: ${leftOut}`)

const API_PATHS = [
  '/api/v1/papers',
  '/api/v1/papers/MED-1',
  '/api/v1/claims',
  '/api/v1/stories',
  '/api/v1/entities',
  '/api/v1/topics',
  '/api/v1/search?q=mice',
  '/api/v1/stats',
]

const record = (n: number) => ({
  id: String(n),
  source: 'MED',
  pmid: String(n),
  title: `Paper ${n}`,
  authorString: 'Smith A.',
  firstIndexDate: '2026-11-01',
  journalInfo: { journal: { title: 'Aging Cell' } },
})

describe.skipIf(leftOut !== null)('PostgreSQL stopped while the service runs', () => {
  let cluster: OwnCluster
  let database: Database
  let app: Awaited<ReturnType<typeof testApp>>
  let key: string
  let upstream: ReplayServer
  let releaseSecondPage: () => void = () => {}
  let secondPageAsked: () => void = () => {}
  const secondPageWanted = new Promise<void>((resolve) => {
    secondPageAsked = resolve
  })
  const config = () => ({ europepmcBaseUrl: upstream.url, europepmcQuery: 'aging' })

  beforeAll(async () => {
    cluster = await OwnCluster.create()
    await cluster.start()
    database = await openDatabase({ kind: 'postgres', url: cluster.url, max: 4 })
    await migrateDatabase(database, cluster.url)
    await insertPapers(database.db, [paperRow({ id: 'MED-1' })])
    key = (await createTestKey(database.db, { tier: 'pro' })).key
    app = await testApp(database)
    // Europe PMC, three pages of two records; the second page waits until the test lets it go.
    const held = new Promise<void>((resolve) => {
      releaseSecondPage = resolve
    })
    upstream = replayServer(async (_, url) => {
      const cursor = url.searchParams.get('cursorMark')
      const page = cursor === '*' ? 1 : cursor === 'p2' ? 2 : 3
      if (page === 2) {
        secondPageAsked()
        await held
      }
      return Response.json({
        hitCount: 6,
        ...(page < 3 ? { nextCursorMark: `p${page + 1}` } : {}),
        resultList: { result: [record(page * 10 + 1), record(page * 10 + 2)] },
      })
    })
  }, 120_000)

  afterAll(async () => {
    releaseSecondPage()
    await upstream?.stop()
    await database?.pg?.end({ timeout: 0 })
    await cluster?.destroy()
  })

  test('503 within a second while it is down, a cut job resumes, and the service comes back by itself', async () => {
    for (const path of API_PATHS)
      expect({ path, status: (await app.handle(req(path, bearer(key)))).status }).toEqual({ path, status: 200 })

    // A harvest is running: page 1 is stored, page 2 is on its way from Europe PMC.
    const cut = runJob(database, 'harvest', () => harvestEuropePmc(database, config()))
    const cutOutcome = cut.then(
      () => 'finished',
      (error: Error) => error,
    )
    await secondPageWanted
    await cluster.stop()
    releaseSecondPage() // its page arrives with no database to store it in
    expect(await cutOutcome).toBeInstanceOf(Error)

    // Every endpoint, one after another, then as many at once as the pool has connections, then a
    // burst eight times the pool: 503 unavailable with Retry-After, each within a second. (Queued on
    // the pool, a burst larger than it waited for failing connection attempts 0.5 s apart, up to
    // 1.1 s; the breaker, src/http/breaker.ts, answers at once while the last attempt failed moments ago.)
    const timed = async (path: string) => {
      const started = performance.now()
      const response = await Promise.race([app.handle(req(path, bearer(key))), Bun.sleep(5000).then(() => null)])
      const ms = performance.now() - started
      if (!response) return { path, status: 'hung', within: false }
      const body = await response.json()
      return {
        path,
        status: response.status,
        within: ms < 1000 ? true : `${Math.round(ms)} ms`,
        code: body.error?.code,
        retryAfter: /^\d+$/.test(response.headers.get('retry-after') ?? ''),
      }
    }
    const expected = (path: string) => ({ path, status: 503, within: true, code: 'unavailable', retryAfter: true })
    for (const path of API_PATHS) expect(await timed(path)).toEqual(expected(path))
    const burst = API_PATHS.slice(0, 4)
    expect(await Promise.all(burst.map(timed))).toEqual(burst.map(expected))
    const flood = Array.from({ length: 32 }, (_, i) => API_PATHS[i % API_PATHS.length])
    expect(await Promise.all(flood.map(timed))).toEqual(flood.map(expected))
    const health = await Promise.race([app.handle(req('/health')), Bun.sleep(5000).then(() => null)])
    expect(health?.status).toBe(503)

    // The server comes back; nobody touches the app, which answers again within seconds: every pooled
    // connection the outage closed reconnects on its next use (a use during its backoff still fails).
    await cluster.start()
    const statuses = async () =>
      Promise.all(API_PATHS.map(async (path) => ({ path, status: (await app.handle(req(path, bearer(key)))).status })))
    const back = performance.now()
    let answers = await statuses()
    while (answers.some((a) => a.status !== 200) && performance.now() - back < 15_000) {
      await Bun.sleep(250)
      answers = await statuses()
    }
    expect(answers).toEqual(API_PATHS.map((path) => ({ path, status: 200 })))

    // Nothing half-written: page 1 whole, page 2 not at all, and the harvest state points at page 2.
    const harvested = () => database.rows<{ id: string }>(sql`select id from papers where id <> 'MED-1' order by id`)
    expect((await harvested()).map((r) => r.id)).toEqual(['MED-11', 'MED-12'])
    const [state] = await database.rows<{ state: { pending: { cursor: string } } }>(
      sql`select state from job_state where name like '%harvest%'`,
    )
    expect(state.state.pending.cursor).toBe('p2')
    const runsBefore = await database.db.select().from(jobRuns).where(eq(jobRuns.job, 'harvest'))
    expect(runsBefore.map((r) => r.outcome)).toEqual(['running']) // its end could not be written

    // The next run (the schedule's next turn) closes the dead run's row, resumes at page 2 and finishes.
    upstream.requests.length = 0
    const counts = await runJob(database, 'harvest', () => harvestEuropePmc(database, config()))
    expect(counts).toMatchObject({ pages: 2, records: 4, inserted: 4 })
    expect(upstream.requests[0].searchParams.get('cursorMark')).toBe('p2')
    expect((await harvested()).map((r) => r.id)).toEqual(['MED-11', 'MED-12', 'MED-21', 'MED-22', 'MED-31', 'MED-32'])
    const runs = await database.db.select().from(jobRuns).where(eq(jobRuns.job, 'harvest')).orderBy(asc(jobRuns.id))
    expect(runs.map((r) => [r.outcome, r.error, r.finishedAt !== null])).toEqual([
      ['failed', ABANDONED_RUN, true],
      ['ok', null, true],
    ])
    // The advisory lock died with the cut connection: nothing holds it now.
    const locks = await database.rows<{ n: number }>(
      sql`select count(*)::int as n from pg_locks where locktype = 'advisory'`,
    )
    expect(locks[0].n).toBe(0)
  }, 120_000)
})
