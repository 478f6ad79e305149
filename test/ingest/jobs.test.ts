import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { desc, eq } from 'drizzle-orm'
import { openDatabase } from '../../src/db/client'
import { jobRuns, rssSources } from '../../src/db/schema'
import { JobBusyError, withJobLock } from '../../src/jobs/job-lock'
import { runJob } from '../../src/jobs/run-job'
import { WORKER_JOBS } from '../../src/lifecycle/workers'
import { cliWithEnv } from '../support/cli'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { replayServer, type ReplayServer } from '../support/replay-server'

let database: TestDatabase
let server: ReplayServer
let release: (() => void) | null = null
let held: Promise<void> = Promise.resolve()

const record = (n: number) => ({
  id: String(n),
  source: 'MED',
  pmid: String(n),
  title: `Paper ${n}`,
  authorString: 'Smith A.',
  firstIndexDate: '2026-11-01',
  journalInfo: { journal: { title: 'Aging Cell' } },
})

beforeAll(async () => {
  database = await freshDatabase()
  server = replayServer(async (_, url) => {
    if (url.pathname === '/feed')
      return new Response(
        '<rss version="2.0"><channel><item><title>T</title><link>https://a.test/1</link></item></channel></rss>',
      )
    if (url.pathname === '/other-feed')
      return new Response(
        '<rss version="2.0"><channel><item><title>U</title><link>https://a.test/2</link></item></channel></rss>',
      )
    if (url.pathname === '/broken-feed') return new Response('<html><body>maintenance</body></html>')
    if (url.pathname.startsWith('/refusing/')) return new Response('bad query', { status: 400 })
    const first = url.searchParams.get('cursorMark') === '*'
    return Response.json({
      hitCount: 2,
      ...(first ? { nextCursorMark: 'p2' } : {}),
      resultList: { result: [record(first ? 1 : 2)] },
    })
  })
})
afterEach(() => release?.())
afterAll(async () => {
  await server.stop()
  await database.close()
})

const env = () => ({ EUROPEPMC_BASE_URL: server.url, EUROPEPMC_QUERY: 'aging', SCRAPE_ALLOW_PRIVATE: 'on' })
const lastRun = async (job: string) =>
  (await database.db.select().from(jobRuns).where(eq(jobRuns.job, job)).orderBy(desc(jobRuns.id)).limit(1))[0]

describe('cli ingest europepmc', () => {
  test('backfills a date range, shows progress against the hit count and leaves a job_runs row', async () => {
    const result = await cliWithEnv(
      database,
      env(),
      'ingest',
      'europepmc',
      '--since',
      '2026-11-01',
      '--until',
      '2026-11-02',
    )
    expect(result.code).toBe(0)
    expect(result.stdout).toEqual([
      'harvest done: 2 records in 2 pages; 2 new, 0 updated (0 with new text), 0 unchanged, 0 withdrawn, 0 skipped',
    ])
    expect(result.stderr.at(-1)).toMatch(/^2 \/ 2 records, [\d,]+\/s$/)
    expect(server.requests.at(-1)!.searchParams.get('query')).toEndWith('FIRST_IDATE:[2026-11-01 TO 2026-11-02]')
    const run = await lastRun('harvest')
    expect(run).toMatchObject({ outcome: 'ok', counts: { pages: 2, records: 2, inserted: 2 }, error: null })
    expect(run.finishedAt).not.toBeNull()
  })

  test.each([
    [['--until', '2026-11-02'], '--until needs --since (without them the run continues the incremental harvest)'],
    [['--since', '2026-13-01'], '--since must be a date like 2026-11-01 (got "2026-13-01")'],
    [['--since', '2026-11-05', '--until', '2026-11-01'], '--since 2026-11-05 is after --until 2026-11-01'],
  ])('refuses %p', async (flags, message) => {
    const result = await cliWithEnv(database, env(), 'ingest', 'europepmc', ...flags)
    expect(result).toMatchObject({ code: 2, stderr: [`error: ${message}`] })
  })

  test('a failed run exits non-zero and is recorded as failed', async () => {
    const result = await cliWithEnv(
      database,
      { ...env(), EUROPEPMC_BASE_URL: `${server.url}/refusing` },
      'ingest',
      'europepmc',
      '--since',
      '2026-11-01',
    )
    expect(result.code).toBe(1)
    expect(result.stderr.at(-1)).toBe('error: Europe PMC answered HTTP 400')
    expect(await lastRun('harvest')).toMatchObject({ outcome: 'failed' })
  })
})

describe('cli scrape', () => {
  test('scrapes every source once and leaves a job_runs row', async () => {
    await database.db.insert(rssSources).values({ name: 'Local', url: `${server.url}/feed` })
    const result = await cliWithEnv(database, env(), 'scrape')
    expect(result).toMatchObject({
      code: 0,
      stdout: ['scrape done: 1 sources, 0 failed, 1 new articles, 0 linked to papers'],
      stderr: ['Local: 1 items, 1 new'],
    })
    expect(await lastRun('scrape')).toMatchObject({ outcome: 'ok', counts: { sources: 1, added: 1 } })
  })

  test('exits non-zero when a source failed, with one line per failed source, after scraping all the others', async () => {
    await database.db.insert(rssSources).values([
      { name: 'Broken', url: `${server.url}/broken-feed` },
      { name: 'Gone', url: `${server.url}/refusing/feed` },
      { name: 'Other', url: `${server.url}/other-feed` },
    ])
    const result = await cliWithEnv(database, env(), 'scrape')
    expect(result.code).toBe(1)
    expect(result.stdout).toEqual(['scrape done: 4 sources, 2 failed, 1 new articles, 0 linked to papers'])
    expect([...result.stderr].sort()).toEqual(
      [
        'Broken: failed: an HTML page, not a feed',
        'Gone: failed: HTTP 400',
        'Local: 1 items, 0 new',
        'Other: 1 items, 1 new',
        'error: 2 of 4 sources failed (one line each above)',
      ].sort(),
    )
    expect(result.stderr.at(-1)).toBe('error: 2 of 4 sources failed (one line each above)')
  })
})

describe('job runs never overlap', () => {
  test('a second run of a running job is refused, through runJob and on the CLI, and leaves no row', async () => {
    held = new Promise((resolve) => {
      release = resolve
    })
    const before = (await database.db.select().from(jobRuns)).length
    const running = runJob(database, 'harvest', async () => {
      await held
      return {}
    })
    await expect(withJobLock(database, 'harvest', async () => 1)).rejects.toBeInstanceOf(JobBusyError)
    const cli = await cliWithEnv(database, env(), 'ingest', 'europepmc')
    expect(cli).toMatchObject({
      code: 1,
      stderr: ['error: job harvest is already running (in this or another process); try again when it ends'],
    })
    expect(await withJobLock(database, 'scrape', async () => 'other jobs run')).toBe('other jobs run')
    release!()
    await running
    expect((await database.db.select().from(jobRuns)).length).toBe(before + 1)
    expect(await withJobLock(database, 'harvest', async () => 'free again')).toBe('free again')
  })

  test.if(testDriver === 'postgres')('another process (another connection pool) is refused too', async () => {
    held = new Promise((resolve) => {
      release = resolve
    })
    const other = await openDatabase({ kind: 'postgres', url: database.url!, max: 2 })
    try {
      const running = withJobLock(database, 'harvest', () => held)
      await Bun.sleep(50) // let the first take the advisory lock
      await expect(withJobLock(other, 'harvest', async () => 1)).rejects.toBeInstanceOf(JobBusyError)
      release!()
      await running
      expect(await withJobLock(other, 'harvest', async () => 'taken over')).toBe('taken over')
    } finally {
      await other.close()
    }
  })
})

describe('WORKER_JOBS', () => {
  test('harvest hourly and scrape every 30 minutes', () => {
    const cron = Object.fromEntries(WORKER_JOBS.map((j) => [j.name, j.cron]))
    expect(cron.harvest).toMatch(/^\d+ \* \* \* \*$/)
    expect(cron.scrape).toBe('*/30 * * * *')
  })
})
