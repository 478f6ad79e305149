/**
 * The services around Geroscope hanging, then failing, then well again: the model endpoint, Europe
 * PMC and a feed. Each job's wait is bounded by its client's timeout, the data API answers as usual
 * while they wait, nothing half-written is left, and the next runs (the schedule's next turns) do
 * the work once the services answer.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { llmAnalyzer } from '../../src/pipeline/analysis/llm/analyzer'
import { runAnalysis } from '../../src/pipeline/analysis/pipeline'
import { jobRuns, papers, rssSources } from '../../src/db/schema'
import { harvestEuropePmc } from '../../src/pipeline/ingest/europepmc/harvest'
import { scrapeFeeds } from '../../src/pipeline/ingest/rss/scrape'
import { runJob } from '../../src/jobs/run-job'
import { startReplayServer as startModel, type ReplayServer as ModelServer } from '../analysis/replay-server'
import { RAPAMYCIN_MICE } from '../analysis/paper-input'
import { req, testApp } from '../support/app'
import { freshDatabase, type TestDatabase } from '../support/database'
import { bearer, createTestKey, insertPapers, paperRow } from '../support/fixtures'
import { replayServer, type ReplayServer } from '../support/replay-server'

type Mode = 'hang' | 'fail' | 'ok'
// Each client's per-attempt timeout here (production defaults are a minute at most): two attempts
// take long enough that the API requests below provably finish while the jobs still wait.
const TIMEOUT_MS = 2500

const MODEL_ANSWERS: Record<string, unknown> = {
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
  claims: { claims: [] },
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

describe('upstreams that hang or fail', () => {
  let database: TestDatabase
  let app: Awaited<ReturnType<typeof testApp>>
  let key: string
  let mode: Mode = 'hang'
  let upstream: ReplayServer // Europe PMC and the feed
  let model: ModelServer
  const forever = new Promise<never>(() => {})

  beforeAll(async () => {
    database = await freshDatabase()
    key = (await createTestKey(database.db, { tier: 'pro' })).key
    app = await testApp(database)
    for (const path of API_PATHS) await app.handle(req(path, bearer(key))) // warm, as a running service is
    const unjudged = paperRow({
      id: 'MED-500',
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
    })
    await insertPapers(database.db, [paperRow({ id: 'MED-1' }), unjudged])
    upstream = replayServer(async (_, url) => {
      if (mode === 'hang') return forever
      if (mode === 'fail') return new Response('upstream trouble', { status: 503 })
      if (url.pathname === '/feed')
        return new Response(
          '<rss version="2.0"><channel><item><title>T</title><link>https://a.test/1</link></item></channel></rss>',
        )
      return Response.json({
        hitCount: 1,
        resultList: {
          result: [
            {
              id: '77',
              source: 'MED',
              pmid: '77',
              title: 'Paper 77',
              authorString: 'Smith A.',
              firstIndexDate: '2026-11-01',
              journalInfo: { journal: { title: 'Aging Cell' } },
            },
          ],
        },
      })
    })
    await database.db.insert(rssSources).values({ name: 'Local', url: `${upstream.url}/feed` })
    model = startModel()
  })

  afterAll(async () => {
    model?.stop()
    await upstream?.stop()
    await database?.close()
  })

  const config = () => ({ europepmcBaseUrl: `${upstream.url}/epmc`, europepmcQuery: 'aging', scrapeAllowPrivate: true })
  const client = { timeoutMs: TIMEOUT_MS, retries: 1, backoffMs: 10 }
  const harvest = () =>
    runJob(database, 'harvest', () => harvestEuropePmc(database, config(), { today: '2026-11-02', client }))
  const scrape = () =>
    runJob(database, 'scrape', () => scrapeFeeds(database, config(), { fetch: { timeoutMs: TIMEOUT_MS } }))
  const analyze = () =>
    runJob(database, 'analyze', () =>
      runAnalysis(
        database.db,
        llmAnalyzer(database.db, {
          baseUrl: model.url,
          apiKey: 'sk-test',
          model: 'test-model',
          concurrency: 2,
          timeoutMs: TIMEOUT_MS,
          maxAttempts: 2,
          backoffMs: 10,
        }),
        { onFailure: () => {} },
      ),
    )
  const settle = <T>(job: Promise<T>) =>
    job.then(
      (counts) => ({ counts }),
      (error: Error) => ({ error: error.message }),
    )

  const API_PATHS = [
    '/api/v1/papers',
    '/api/v1/papers/MED-1',
    '/api/v1/search?q=rapamycin',
    '/api/v1/stats',
    '/api/v1/entities',
  ]

  /** Every job at once; while they wait on their upstreams, the API answers. */
  async function allJobsWhileServing() {
    const started = performance.now()
    let jobsEnded = false
    const jobs = Promise.all([settle(harvest()), settle(scrape()), settle(analyze())])
    void jobs.then(() => {
      jobsEnded = true
    })
    for (const path of API_PATHS) {
      const response = await app.handle(req(path, bearer(key)))
      expect({ path, status: response.status }).toEqual({ path, status: 200 })
    }
    const answeredWhileJobsRan = !jobsEnded
    const [harvested, scraped, analysed] = await jobs
    return { harvested, scraped, analysed, answeredWhileJobsRan, totalMs: performance.now() - started }
  }

  async function nothingHalfWritten() {
    const [paper] = await database.db.select().from(papers).where(eq(papers.id, 'MED-500'))
    expect({ judgedAt: paper.judgedAt, extractedAt: paper.extractedAt, relevance: paper.relevance }).toEqual({
      judgedAt: null,
      extractedAt: null,
      relevance: null,
    })
    const [children] = await database.rows<{
      stories: number
      links: number
      articles: number
      harvested: number
    }>(sql`select
      (select count(*)::int from stories where paper_id = 'MED-500') as stories,
      (select count(*)::int from paper_entities where paper_id = 'MED-500') as links,
      (select count(*)::int from articles) as articles,
      (select count(*)::int from papers where id = 'MED-77') as harvested`)
    expect(children).toEqual({ stories: 0, links: 0, articles: 0, harvested: 0 })
    const running = await database.db.select().from(jobRuns).where(eq(jobRuns.outcome, 'running'))
    expect(running).toEqual([]) // every run ended and recorded it: the locks are free
  }

  test('hanging: each job gives up after its timeout, the API does not wait on them, nothing is half-written', async () => {
    mode = 'hang'
    model.reset(() => ({ delayMs: 60_000, json: {} }))
    const { harvested, scraped, analysed, answeredWhileJobsRan, totalMs } = await allJobsWhileServing()
    expect(harvested).toEqual({ error: `Europe PMC did not answer within ${TIMEOUT_MS} ms (gave up after 2 attempts)` })
    expect(scraped).toMatchObject({ counts: { sources: 1, failed: 1, added: 0 } })
    expect(analysed).toMatchObject({ counts: { papers: 0, failed: 1 } })
    expect(answeredWhileJobsRan).toBe(true)
    expect(totalMs).toBeLessThan(20_000) // two attempts each, and a short backoff: bounded, not hung
    const [source] = await database.db.select().from(rssSources)
    expect(source).toMatchObject({ lastError: `no complete answer within ${TIMEOUT_MS} ms`, consecutiveFailures: 1 })
    await nothingHalfWritten()
  }, 30_000)

  test('failing with 503: the same, sooner', async () => {
    mode = 'fail'
    model.reset(() => ({ status: 503 }))
    const { harvested, scraped, analysed } = await allJobsWhileServing()
    expect(harvested).toEqual({ error: 'Europe PMC answered HTTP 503 (gave up after 2 attempts)' })
    expect(scraped).toMatchObject({ counts: { sources: 1, failed: 1, added: 0 } })
    expect(analysed).toMatchObject({ counts: { papers: 0, failed: 1 } })
    await nothingHalfWritten()
  }, 30_000)

  test('well again: the next runs do the work the failed ones left', async () => {
    mode = 'ok'
    model.reset((task) => ({ json: MODEL_ANSWERS[task] }))
    const { harvested, scraped, analysed } = await allJobsWhileServing()
    expect(harvested).toMatchObject({ counts: { records: 1, inserted: 1 } })
    expect({ scraped, source: (await database.db.select().from(rssSources))[0].lastError }).toMatchObject({
      scraped: { counts: { sources: 1, failed: 0, added: 1 } },
      source: null,
    })
    expect(analysed).toMatchObject({ counts: { failed: 0 } }) // MED-500, and MED-77 when the harvest stored it first
    const [paper] = await database.db.select().from(papers).where(eq(papers.id, 'MED-500'))
    expect(paper.judgedAt).not.toBeNull()
    const [source] = await database.db.select().from(rssSources)
    expect(source).toMatchObject({ lastError: null, consecutiveFailures: 0 })
    expect((await database.rows<{ n: number }>(sql`select count(*)::int as n from articles`))[0].n).toBe(1)
    const outcomes = await database.rows<{ job: string; outcomes: string[] }>(sql`
      select job, array_agg(outcome order by id) as outcomes from job_runs group by job order by job`)
    expect(outcomes).toEqual([
      // A paper that failed is counted and left for the next run; the run that went on past it is partial.
      { job: 'analyze', outcomes: ['partial', 'partial', 'ok'] },
      { job: 'harvest', outcomes: ['failed', 'failed', 'ok'] },
      { job: 'scrape', outcomes: ['partial', 'partial', 'ok'] }, // a failing feed is recorded on its source
    ])
  }, 30_000)
})
