/**
 * `kill -9` of a real CLI process in the middle of a harvest, a scrape and an analysis, on
 * PostgreSQL (the bulk seed's own is test/seed/crash.test.ts): what was committed is whole, the
 * job's advisory lock dies with the process, the next run closes the dead run's row, completes the
 * work, and adds nothing twice.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { ABANDONED_RUN } from '../../src/jobs/job-runs'
import { jobRuns, rssSources } from '../../src/db/schema'
import { startReplayServer as startModel, type ReplayServer as ModelServer } from '../analysis/replay-server'
import { RAPAMYCIN_MICE } from '../analysis/paper-input'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { eventually } from '../support/eventually'
import { insertPapers, paperRow } from '../support/fixtures'
import { replayServer, type ReplayServer } from '../support/replay-server'

const onPostgres = testDriver === 'postgres'
if (!onPostgres)
  console.log(
    'kill -9 tests left out on PGlite: they need a server that outlives the killed process (run with DATABASE_URL)',
  )

type Child = ReturnType<typeof Bun.spawn>

function cliProcess(database: TestDatabase, env: Record<string, string>, ...args: string[]) {
  return Bun.spawn([process.execPath, 'scripts/cli.ts', ...args], {
    env: { ...process.env, DATABASE_URL: database.url!, SCRAPE_ALLOW_PRIVATE: 'on', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
}

async function finished(child: Child) {
  const [code, stdout, stderr] = await Promise.all([
    child.exited,
    new Response(child.stdout as ReadableStream).text(),
    new Response(child.stderr as ReadableStream).text(),
  ])
  return {
    code,
    stdout: stdout.trim(),
    stderr: stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('error')),
  }
}

/** Kills `child` with SIGKILL once `moment` resolves, and waits for it to be gone. */
async function killAt(child: Child, moment: Promise<void>) {
  const outcome = await Promise.race([moment.then(() => 'reached'), child.exited.then(() => 'ended first')])
  if (outcome !== 'reached')
    throw new Error(`the process ended before the kill: ${JSON.stringify(await finished(child))}`)
  child.kill('SIGKILL')
  expect(await child.exited).not.toBe(0)
  expect(child.signalCode).toBe('SIGKILL')
}

async function lockReleasedAndRunAbandoned(database: TestDatabase, job: string) {
  // The server sees the dead connection and drops its session, and the advisory lock with it.
  expect(
    await eventually(
      async () =>
        (
          await database.rows<{ n: number }>(sql`
    select count(*)::int as n from pg_locks l join pg_stat_activity a using (pid)
    where l.locktype = 'advisory' and a.datname = current_database()`)
        )[0].n === 0,
      10_000,
    ),
  ).toBe(true)
  const runs = await database.db.select().from(jobRuns).where(eq(jobRuns.job, job))
  expect(runs.map((r) => r.outcome)).toEqual(['running'])
}

async function closedThenOk(database: TestDatabase, job: string) {
  const runs = await database.db.select().from(jobRuns).where(eq(jobRuns.job, job)).orderBy(jobRuns.id)
  expect(runs.map((r) => [r.outcome, r.error])).toEqual([
    ['failed', ABANDONED_RUN],
    ['ok', null],
  ])
}

describe.skipIf(!onPostgres)('kill -9 in the middle of a job', () => {
  let database: TestDatabase
  let upstream: ReplayServer
  let model: ModelServer
  let hold = true // while true, the last Europe PMC page and the last feed never answer
  let reachedHeldPage: () => void = () => {}
  let reachedHeldFeed: () => void = () => {}
  const forever = new Promise<never>(() => {})

  const record = (n: number) => ({
    id: String(n),
    source: 'MED',
    pmid: String(n),
    title: `Paper ${n}`,
    authorString: 'Smith A.',
    firstIndexDate: '2026-11-01',
    journalInfo: { journal: { title: 'Aging Cell' } },
  })
  const feed = (source: number) =>
    `<rss version="2.0"><channel>${Array.from(
      { length: 5 },
      (_, i) => `<item><title>Item ${source}.${i}</title><link>https://news.test/${source}/${i}</link></item>`,
    ).join('')}</channel></rss>`

  beforeAll(async () => {
    database = await freshDatabase()
    upstream = replayServer(async (_, url) => {
      if (url.pathname.startsWith('/feed/')) {
        const source = Number(url.pathname.slice('/feed/'.length))
        if (source === 3 && hold) {
          reachedHeldFeed()
          return forever
        }
        return new Response(feed(source))
      }
      const page = Number(url.searchParams.get('cursorMark')!.replace('*', '1').replace('p', ''))
      if (page === 3 && hold) {
        reachedHeldPage()
        return forever
      }
      return Response.json({
        hitCount: 8,
        ...(page < 4 ? { nextCursorMark: `p${page + 1}` } : {}),
        resultList: { result: [record(page * 10 + 1), record(page * 10 + 2)] },
      })
    })
    model = startModel()
  })

  afterAll(async () => {
    model?.stop()
    await upstream?.stop()
    await database?.close()
  })

  test('a harvest: whole pages only, and the next run resumes at the page it was waiting for', async () => {
    hold = true
    const env = { EUROPEPMC_BASE_URL: upstream.url, EUROPEPMC_QUERY: 'aging' }
    const child = cliProcess(database, env, 'ingest', 'europepmc')
    await killAt(
      child,
      new Promise((resolve) => {
        reachedHeldPage = resolve
      }),
    )
    await lockReleasedAndRunAbandoned(database, 'harvest')
    const ids = async () =>
      (await database.rows<{ id: string }>(sql`select id from papers order by id`)).map((r) => r.id)
    expect(await ids()).toEqual(['MED-11', 'MED-12', 'MED-21', 'MED-22'])

    hold = false
    upstream.requests.length = 0
    expect(await finished(cliProcess(database, env, 'ingest', 'europepmc'))).toMatchObject({ code: 0, stderr: [] })
    expect(upstream.requests[0].searchParams.get('cursorMark')).toBe('p3')
    expect(await ids()).toEqual(['MED-11', 'MED-12', 'MED-21', 'MED-22', 'MED-31', 'MED-32', 'MED-41', 'MED-42'])
    await closedThenOk(database, 'harvest')
  }, 60_000)

  test('a scrape: each source has all its articles and its success, or neither; the next run adds the rest once', async () => {
    hold = true
    await database.db
      .insert(rssSources)
      .values([1, 2, 3].map((n) => ({ name: `Feed ${n}`, url: `${upstream.url}/feed/${n}` })))
    const child = cliProcess(database, {}, 'scrape')
    await killAt(
      child,
      new Promise((resolve) => {
        reachedHeldFeed = resolve
      }),
    )
    await lockReleasedAndRunAbandoned(database, 'scrape')
    const perSource = () =>
      database.rows<{ name: string; articles: number; succeeded: boolean }>(sql`
      select s.name, (select count(*)::int from articles a where a.source_id = s.id) as articles, s.last_success_at is not null as succeeded
      from rss_sources s order by s.name`)
    for (const source of await perSource())
      expect([
        [0, false],
        [5, true],
      ]).toContainEqual([source.articles, source.succeeded])
    expect((await perSource()).find((s) => s.name === 'Feed 3')).toEqual({
      name: 'Feed 3',
      articles: 0,
      succeeded: false,
    })

    hold = false
    expect(await finished(cliProcess(database, {}, 'scrape'))).toMatchObject({ code: 0, stderr: [] })
    expect(await perSource()).toEqual([1, 2, 3].map((n) => ({ name: `Feed ${n}`, articles: 5, succeeded: true })))
    const [{ links }] = await database.rows<{ links: number }>(
      sql`select count(distinct link)::int as links from articles`,
    )
    expect(links).toBe(15)
    await closedThenOk(database, 'scrape')
  }, 60_000)

  test('an analysis: every paper judged with all its children or not at all; the next run judges the rest, once', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `MED-${700000 + i}`)
    await insertPapers(
      database.db,
      ids.map((id) =>
        paperRow({
          id,
          title: RAPAMYCIN_MICE.title,
          abstract: RAPAMYCIN_MICE.abstract,
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
        }),
      ),
    )
    // Only these papers are waiting: the harvested ones count as judged here.
    await database.rows(sql`update papers set judged_at = now(), extracted_at = now() where id not like 'MED-7000%'`)
    const answers: Record<string, unknown> = {
      judge: {
        relevance: [0, 0.1, 0.3, 0.6],
        relevance_confidence: 0.9,
        newsworthiness: 2,
        study_type: 'animal',
        study_type_confidence: 0.95,
        topic: 'mtor-rapamycin',
        topic_confidence: 0.85,
        promotional: 0.01,
      },
      entities: { entities: [{ type: 'intervention', name: 'Rapamycin', role: 'studied' }] },
      claims: {
        claims: [
          {
            subject: 'rapamycin',
            relation: 'extends_lifespan',
            object: 'lifespan',
            organism: 'Mus musculus',
            direction: 'increase',
            magnitude: '12%',
            evidence: 'Rapamycin extended median lifespan by 12% and reduced SASP expression in the liver.',
            confidence: 0.9,
          },
        ],
      },
      story: {
        headline: 'Rapamycin extends mouse lifespan',
        dek: 'A mouse study.',
        body: 'One.\n\nTwo.',
        why_it_matters: 'mTOR.',
        caveats: 'Mice only.',
      },
      support: { support: 3, problems: [] },
      article: { summary: 'S.', key_points: ['k'], tags: ['t'] },
    }
    let child: Child | null = null
    let requests = 0
    let killed: () => void = () => {}
    const killMoment = new Promise<void>((resolve) => {
      killed = resolve
    })
    // Killed at the 30th model request: about six papers in, others being asked or stored.
    model.reset((task) => {
      if (++requests === 30) killed()
      return { json: answers[task] }
    })
    const env = { LLM_BASE_URL: model.url, LLM_MODEL: 'test-model', LLM_API_KEY: 'sk-test', LLM_CONCURRENCY: '4' }
    child = cliProcess(database, env, 'analyze')
    await killAt(child, killMoment)
    await lockReleasedAndRunAbandoned(database, 'analyze')

    const perPaper = () =>
      database.rows<{
        id: string
        judged: boolean
        extracted: boolean
        stories: number
        links: number
        claims: number
      }>(sql`
      select p.id, p.judged_at is not null as judged, p.extracted_at is not null as extracted,
        (select count(*)::int from stories s where s.paper_id = p.id) as stories,
        (select count(*)::int from paper_entities e where e.paper_id = p.id and e.role <> 'indexed') as links,
        (select count(*)::int from claims c where c.paper_id = p.id) as claims
      from papers p where p.id like 'MED-7000%' order by p.id`)
    const after = await perPaper()
    const whole = { judged: true, extracted: true, stories: 1, links: 1, claims: 1 }
    const none = { judged: false, extracted: false, stories: 0, links: 0, claims: 0 }
    for (const { id, ...paper } of after)
      expect({
        id,
        paper: [whole, none].some((s) => JSON.stringify(s) === JSON.stringify(paper)) ? 'consistent' : paper,
      }).toEqual({ id, paper: 'consistent' })
    const judgedBefore = after.filter((p) => p.judged).length
    expect(judgedBefore).toBeGreaterThan(0)
    expect(judgedBefore).toBeLessThan(ids.length)

    model.reset((task) => ({ json: answers[task] }))
    const rerun = await finished(cliProcess(database, env, 'analyze'))
    expect(rerun).toMatchObject({ code: 0, stderr: [] })
    expect(rerun.stdout).toContain(`: ${ids.length - judgedBefore} papers (0 failed`)
    expect((await perPaper()).map(({ id, ...paper }) => ({ id, paper }))).toEqual(
      ids.map((id) => ({ id, paper: whole })),
    )
    await closedThenOk(database, 'analyze')
  }, 60_000)
})
