/**
 * A job run's progress and its cancel: POST /api/scrape, /api/analyze and /api/export with `wait: false`
 * answer 202 with the run, GET /api/jobs/runs/{id} follows it, POST /api/jobs/runs/{id}/cancel stops it at
 * its next unit, also when it runs in another instance (PostgreSQL: another pool, so only the database
 * carries the request). The scrape reads a slow local feed server through the real scraper; the test holds
 * some of its answers back to know exactly which sources were under way when the cancel came.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, eq, inArray, isNotNull } from 'drizzle-orm'
import { createAnalyzer } from '../../src/pipeline/analysis/create-analyzer'
import { runAnalysis } from '../../src/pipeline/analysis/pipeline'
import { openDatabase, type Database } from '../../src/db/client'
import { articles, jobRuns, papers, rssSources } from '../../src/db/schema'
import { EXPORT_JOB, runExport } from '../../src/pipeline/exports/run-export'
import { cancelInProcess, requestCancel } from '../../src/jobs/run-control'
import { runJob, startJob, stopStartedRuns } from '../../src/jobs/run-job'
import { adminRequest, freshAddress, sessionFrom } from '../support/admin'
import { testApp } from '../support/app'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { eventually } from '../support/eventually'
import { insertPapers, paperRow } from '../support/fixtures'
import { replayServer, type ReplayServer } from '../support/replay-server'
import { createAccount } from '../../src/accounts/accounts'
import { parseConfig } from '../../src/config'

let database: TestDatabase
let second: Database
let a: Awaited<ReturnType<typeof testApp>>
let b: Awaited<ReturnType<typeof testApp>>
let operator: string
let member: string
let feeds: ReplayServer
let exportDir: string
/** Feed paths /slow/N answer after FEED_DELAY_MS; /held/N wait until `release()` too. */
let gate!: Promise<void>
let release!: () => void
const FEED_DELAY_MS = 150
const arm = () => {
  gate = new Promise((resolve) => {
    release = resolve
  })
}

beforeAll(async () => {
  arm()
  database = await freshDatabase()
  second = database.url ? await openDatabase({ kind: 'postgres', url: database.url, max: 4 }) : database
  exportDir = mkdtempSync(join(tmpdir(), 'geroscope-progress-'))
  const env = { TRUST_PROXY: '1', SCRAPE_ALLOW_PRIVATE: 'on', EXPORT_DIR: exportDir }
  a = await testApp(database, {}, env)
  b = await testApp(second, {}, env)
  await createAccount(database.db, { username: 'ops', password: 'a long password', role: 'admin' })
  await createAccount(database.db, { username: 'reader', password: 'a long password', role: 'member' })
  const login = async (username: string) =>
    sessionFrom(
      await a.handle(
        adminRequest('/api/auth/login', { body: { username, password: 'a long password' }, address: freshAddress() }),
      ),
    )!
  operator = await login('ops')
  member = await login('reader')
  feeds = replayServer(async (_, url) => {
    await new Promise((resolve) => setTimeout(resolve, FEED_DELAY_MS))
    if (url.pathname.startsWith('/held/')) await gate
    const n = url.pathname.replaceAll('/', '-')
    return new Response(
      `<rss version="2.0"><channel><item><title>Item ${n}</title><link>https://a.test/${n}</link><description>Rapamycin in mice.</description></item></channel></rss>`,
      { headers: { 'content-type': 'application/rss+xml' } },
    )
  })
})
afterAll(async () => {
  release()
  await feeds.stop()
  if (second !== database) await second.close()
  await database.close()
  rmSync(exportDir, { recursive: true, force: true })
})

const on = (app: typeof a, path: string, options: Parameters<typeof adminRequest>[1] = {}) =>
  app.handle(adminRequest(path, { cookie: operator, address: freshAddress(), ...options }))
const json = async (response: Response) => ({ status: response.status, body: await response.json() })
const run = async (id: number, app = a) => (await json(await on(app, `/api/jobs/runs/${id}`))).body.data
/** Polls the row itself: the admin interface allows an operator 100 requests a minute. */
const row = async (id: number) => (await database.db.select().from(jobRuns).where(eq(jobRuns.id, id)))[0]
const ended = (id: number) => eventually(async () => (await row(id)).outcome !== 'running', 20_000)

/** Sources /slow/… first, then /held/…: the scrape does 4 at a time, so the first 4 end, the next 4 wait at the gate. */
async function addSources(prefix: string, slow: number, held: number) {
  await database.db.update(rssSources).set({ enabled: false })
  const rows = [
    ...Array.from({ length: slow }, (_, i) => ({
      name: `${prefix} slow ${i}`,
      url: `${feeds.url}/slow/${prefix}${i}`,
    })),
    ...Array.from({ length: held }, (_, i) => ({
      name: `${prefix} held ${i}`,
      url: `${feeds.url}/held/${prefix}${i}`,
    })),
  ]
  return database.db.insert(rssSources).values(rows).returning()
}

describe(`progress and cancel of a scrape, across instances on ${testDriver}`, () => {
  test('a scrape started with wait: false answers 202 with the run; its progress shows; a cancel from the other instance stops it at the next source', async () => {
    const sources = await addSources('x', 4, 6)
    const started = await json(await on(a, '/api/scrape', { body: { wait: false } }))
    expect(started.status).toBe(202)
    expect(started.body.data).toMatchObject({
      job: 'scrape',
      status: 'running',
      finished_at: null,
      duration_ms: null,
      cancellable: true,
      cancel_requested_at: null,
      cancel_requested_by: null,
      error: null,
    })
    const id = started.body.data.id as number
    expect(typeof started.body.data.elapsed_ms).toBe('number')

    // The four fast sources end; four held ones are under way (the scrape's 4 lanes), two not started.
    expect(await eventually(async () => (await row(id)).progressDone === 4, 10_000)).toBe(true)
    const midway = await run(id, b)
    expect(midway).toMatchObject({
      status: 'running',
      progress: { done: 4, total: 10, unit: 'sources' },
      cancellable: true,
    })
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect((await run(id, b)).elapsed_ms).toBeGreaterThan(midway.elapsed_ms - 1)

    // Instance B asks; on PostgreSQL it shares nothing with A but the database.
    const cancel = await json(await on(b, `/api/jobs/runs/${id}/cancel`, { method: 'POST', body: {} }))
    expect(cancel.status).toBe(202)
    expect(cancel.body.data).toMatchObject({ id, status: 'running', cancel_requested_by: 'ops' })
    expect(cancel.body.data.cancel_requested_at).toEqual(expect.any(String))
    // Asking twice is harmless and keeps the first request.
    const again = await json(await on(a, `/api/jobs/runs/${id}/cancel`, { method: 'POST', body: {} }))
    expect(again.status).toBe(202)
    expect(again.body.data.cancel_requested_at).toBe(cancel.body.data.cancel_requested_at)

    release()
    expect(await ended(id)).toBe(true)
    const view = await run(id)
    expect(view).toMatchObject({
      status: 'cancelled',
      cancellable: false,
      progress: { done: 8, total: 10, unit: 'sources' },
      counts: { sources: 8, added: 8, failed: 0 },
      error: 'cancelled by ops after 8 of 10 sources; the work done so far is kept',
    })
    expect(view.duration_ms).toEqual(expect.any(Number))
    // The sources under way finished and were stored; the last two were never fetched.
    const fetched = await database.db
      .select({ id: rssSources.id })
      .from(rssSources)
      .where(
        and(
          inArray(
            rssSources.id,
            sources.map((s) => s.id),
          ),
          isNotNull(rssSources.lastFetchedAt),
        ),
      )
    expect(fetched.map((r) => r.id).sort((x, y) => x - y)).toEqual(sources.slice(0, 8).map((s) => s.id))
    const stored = await database.db
      .select({ source: articles.sourceId })
      .from(articles)
      .where(
        inArray(
          articles.sourceId,
          sources.map((s) => s.id),
        ),
      )
    expect(new Set(stored.map((r) => r.source))).toEqual(new Set(sources.slice(0, 8).map((s) => s.id)))
    expect(feeds.requests.filter((u) => u.pathname.includes('/x')).length).toBe(8)

    // Listed as cancelled, and the filter finds it.
    const listed = await json(await on(a, '/api/jobs?status=cancelled'))
    expect(listed.body.data.map((r: { id: number }) => r.id)).toContain(id)

    // A run that ended is a 409; an unknown one a 404; a bad id a 400.
    expect(await json(await on(a, `/api/jobs/runs/${id}/cancel`, { method: 'POST', body: {} }))).toEqual({
      status: 409,
      body: {
        error: {
          status: 409,
          code: 'conflict',
          message: `job run ${id} already ended (cancelled); there is nothing to cancel`,
        },
      },
    })
    arm()
  }, 60_000)

  test('a scrape that is waited for and cancelled meanwhile answers 200 with status cancelled', async () => {
    const sources = await addSources('w', 4, 6)
    const answer = on(a, '/api/scrape', { body: { source_ids: sources.map((s) => s.id) } })
    let id = 0
    expect(
      await eventually(async () => {
        const [row] = await database.db.select().from(jobRuns).where(eq(jobRuns.outcome, 'running'))
        id = row?.id ?? 0
        return row?.progressDone === 4
      }, 10_000),
    ).toBe(true)
    expect((await json(await on(a, `/api/jobs/runs/${id}/cancel`, { method: 'POST', body: {} }))).status).toBe(202)
    release()
    const { status, body } = await json(await answer)
    expect(status).toBe(200)
    expect(body.data).toMatchObject({ run_id: id, status: 'cancelled', counts: { sources: 8, added: 8 } })
    arm()
  }, 60_000)
})

describe('the cancel request refused', () => {
  test('404 for an unknown run, 400 for an id that is none, 409 for a job that does not stop part-way, 403 for a member and for another site', async () => {
    expect(await json(await on(a, '/api/jobs/runs/999999/cancel', { method: 'POST', body: {} }))).toEqual({
      status: 404,
      body: { error: { status: 404, code: 'not_found', message: 'no job run with id 999999' } },
    })
    expect((await json(await on(a, '/api/jobs/runs/999999'))).status).toBe(404)
    const bad = await json(await on(a, '/api/jobs/runs/abc/cancel', { method: 'POST', body: {} }))
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe('invalid_parameter')

    let releaseHarvest!: () => void
    let startedHarvest!: (id: number) => void
    const held = new Promise<void>((resolve) => {
      releaseHarvest = resolve
    })
    const begun = new Promise<number>((resolve) => {
      startedHarvest = resolve
    })
    const harvest = runJob(
      database,
      'harvest',
      async () => {
        await held
        return {}
      },
      (id) => startedHarvest(id),
    )
    const harvestId = await begun
    expect((await run(harvestId)).cancellable).toBe(false)
    expect(await json(await on(a, `/api/jobs/runs/${harvestId}/cancel`, { method: 'POST', body: {} }))).toEqual({
      status: 409,
      body: {
        error: {
          status: 409,
          code: 'conflict',
          message: 'runs of harvest do not stop part-way; only scrape, analyze and export runs can be cancelled',
        },
      },
    })

    const asMember = await json(
      await on(a, `/api/jobs/runs/${harvestId}/cancel`, { method: 'POST', body: {}, cookie: member }),
    )
    expect(asMember.status).toBe(403)
    expect(asMember.body.error.code).toBe('forbidden')
    expect((await json(await on(a, `/api/jobs/runs/${harvestId}`, { cookie: member }))).status).toBe(403)
    const crossSite = await json(
      await on(a, `/api/jobs/runs/${harvestId}/cancel`, {
        method: 'POST',
        body: {},
        headers: { origin: 'https://evil.test' },
      }),
    )
    expect(crossSite.status).toBe(403)
    expect(crossSite.body.error.message).toContain('cross-site request refused')
    const unsigned = await json(
      await on(a, `/api/jobs/runs/${harvestId}/cancel`, { method: 'POST', body: {}, cookie: null }),
    )
    expect(unsigned.status).toBe(401)
    releaseHarvest()
    await harvest
    const [row] = await database.db.select().from(jobRuns).where(eq(jobRuns.id, harvestId))
    expect(row).toMatchObject({ outcome: 'ok', cancelRequestedAt: null })
  })

  test('a POST that starts a job while one runs is still a 409 with wait: false', async () => {
    const sources = await addSources('busy', 0, 1)
    const first = await json(await on(a, '/api/scrape', { body: { source_ids: [sources[0].id], wait: false } }))
    expect(first.status).toBe(202)
    const second = await json(await on(b, '/api/scrape', { body: { wait: false } }))
    expect(second.status).toBe(409)
    expect(second.body.error.code).toBe('conflict')
    release()
    expect(await ended(first.body.data.id)).toBe(true)
    expect((await run(first.body.data.id)).status).toBe('ok')
    arm()
  }, 30_000)

  test('wait must be a boolean', async () => {
    const { status, body } = await json(await on(a, '/api/export', { body: { wait: 'no' } }))
    expect(status).toBe(400)
    expect(body.error.message).toContain('wait')
  })
})

describe('progress and cancel of an analysis', () => {
  test('stops at the next paper: the ones done are stored, the others left pending, the run recorded as cancelled', async () => {
    const unjudged = {
      relevance: null,
      relevanceConfidence: null,
      newsworthiness: null,
      studyType: null,
      studyTypeConfidence: null,
      topic: null,
      topicConfidence: null,
      promotional: null,
      judgementModel: null,
      judgementPromptVersion: null,
      judgedAt: null,
      extractedAt: null,
    }
    await insertPapers(
      database.db,
      Array.from({ length: 8 }, (_, i) => paperRow({ id: `MED-90${i}`, ...unjudged })),
    )
    const builtin = createAnalyzer(database.db, parseConfig({}))
    let runId = 0
    let analysed = 0
    // The cancel arrives from "elsewhere" (the database) while the third paper is analysed.
    const analyzer = Object.assign(Object.create(builtin), {
      analyzePaper: async (paper: Parameters<typeof builtin.analyzePaper>[0]) => {
        if (++analysed === 3) expect(await requestCancel(second.db, runId, 'ops')).toBe('requested')
        await new Promise((resolve) => setTimeout(resolve, 300)) // longer than a progress write's interval
        return builtin.analyzePaper(paper)
      },
    })
    const counts = await runJob(
      database,
      'analyze',
      (control) => runAnalysis(database.db, analyzer, { storeConcurrency: 1, control }),
      (id) => {
        runId = id
      },
    )
    expect(counts).toMatchObject({ papers: 3, failed: 0 })
    const view = await run(runId)
    // Its total also holds the feed articles the scrapes above left pending.
    expect(view).toMatchObject({
      status: 'cancelled',
      progress: { done: 3, unit: 'items' },
      counts: { papers: 3, articles: 0 },
    })
    expect(view.progress.total).toBeGreaterThanOrEqual(8)
    expect(view.error).toBe(`cancelled by ops after 3 of ${view.progress.total} items; the work done so far is kept`)
    const judged = await database.db
      .select({ id: papers.id })
      .from(papers)
      .where(
        and(
          inArray(
            papers.id,
            Array.from({ length: 8 }, (_, i) => `MED-90${i}`),
          ),
          isNotNull(papers.judgedAt),
        ),
      )
    expect(judged.map((r) => r.id).sort()).toEqual(['MED-900', 'MED-901', 'MED-902'])
  }, 60_000)

  test('POST /api/analyze with wait: false answers 202 and the run ends with its counts', async () => {
    const { status, body } = await json(await on(a, '/api/analyze', { body: { wait: false, limit: 5 } }))
    expect(status).toBe(202)
    expect(body.data).toMatchObject({ job: 'analyze', status: 'running', cancellable: true })
    expect(await ended(body.data.id)).toBe(true)
    // The limit bounds papers and articles each.
    expect(await run(body.data.id)).toMatchObject({
      status: 'ok',
      progress: { done: 10, total: 10, unit: 'items' },
      counts: { papers: 5, articles: 5 },
    })
  }, 30_000)
})

describe('progress and cancel of an export', () => {
  test('an export runs from POST /api/export, with its progress by resource', async () => {
    const { status, body } = await json(await on(a, '/api/export', { body: {} }))
    expect(status).toBe(200)
    expect(body.data).toMatchObject({
      job: 'export',
      status: 'ok',
      counts: { papers: expect.any(Number), bytes: expect.any(Number) },
    })
    expect(await run(body.data.run_id)).toMatchObject({
      status: 'ok',
      progress: { done: 4, total: 4, unit: 'resources' },
    })
  })

  test('a cancelled export writes no manifest and leaves none of its files; the last complete export stays', async () => {
    const before = readdirSync(exportDir).sort()
    expect(before).toContain('manifest.json')
    let runId = 0
    // On PostgreSQL the cancel comes from another pool, as from another instance. On PGlite the export's snapshot holds the
    // one connection (every request waits for it), so a cancel can only come from inside the process: the shutdown's.
    const cancel = async () => {
      if (database.url) expect(await requestCancel(second.db, runId, 'ops')).toBe('requested')
      else cancelInProcess(database.db, runId)
    }
    const counts = await runJob(
      database,
      EXPORT_JOB,
      (control) =>
        runExport(
          database,
          { exportDir, publicBaseUrl: 'https://geroscope.test' },
          {
            control,
            onFile: async (file) => {
              if (file.resource === 'stories') await cancel()
            },
          },
        ),
      (id) => {
        runId = id
      },
    )
    expect(Object.keys(counts).sort()).toEqual(['bytes', 'papers', 'removed', 'stories'])
    expect(readdirSync(exportDir).sort()).toEqual(before)
    const view = await run(runId)
    expect(view).toMatchObject({ status: 'cancelled', progress: { done: 2, total: 4, unit: 'resources' } })
    expect(view.error).toBe(
      `cancelled ${database.url ? 'by ops' : 'as the service stopped'} after 2 of 4 resources; the work done so far is kept`,
    )
  })

  test('POST /api/export with wait: false answers 202; the graceful shutdown stops a started run at its next unit', async () => {
    const { status, body } = await json(await on(a, '/api/export', { body: { wait: false } }))
    expect(status).toBe(202)
    expect(body.data).toMatchObject({ job: 'export', status: 'running', cancellable: true })
    expect(await ended(body.data.id)).toBe(true)
    expect((await run(body.data.id)).status).toBe('ok')

    const sources = await addSources('stop', 0, 2)
    const started = await startJob(database, 'scrape', (control) =>
      import('../../src/pipeline/ingest/rss/scrape').then(({ scrapeFeeds }) =>
        scrapeFeeds(
          database,
          { scrapeAllowPrivate: true },
          { sourceIds: sources.map((s) => s.id), concurrency: 1, control },
        ),
      ),
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    const stopping = stopStartedRuns(database)
    release()
    expect(await stopping).toBe(1)
    expect(await run(started.runId)).toMatchObject({
      status: 'cancelled',
      progress: { done: 1, total: 2 },
      error: 'cancelled as the service stopped after 1 of 2 sources; the work done so far is kept',
    })
    const done = await database.db
      .select({ id: rssSources.id })
      .from(rssSources)
      .where(isNotNull(rssSources.lastFetchedAt))
    expect(done.map((r) => r.id)).toContain(sources[0].id)
    expect(done.map((r) => r.id)).not.toContain(sources[1].id)
    arm()
  }, 30_000)
})
