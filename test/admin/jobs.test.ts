import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq, isNull } from 'drizzle-orm'
import { articles, jobRuns, papers, rssSources } from '../../src/db/schema'
import { runJob } from '../../src/jobs/run-job'
import { useAdminApp } from '../support/admin'
import { insertPapers, paperRow } from '../support/fixtures'
import { replayServer, type ReplayServer } from '../support/replay-server'

const api = useAdminApp({ SCRAPE_ALLOW_PRIVATE: 'on' })
let operator: string
let feeds: ReplayServer
beforeAll(async () => {
  operator = (await api.operator()).token
  feeds = replayServer((_, url) => {
    const n = url.pathname.slice(1)
    if (n === 'broken') return new Response('<html>not a feed</html>', { headers: { 'content-type': 'text/html' } })
    return new Response(
      `<rss version="2.0"><channel><item><title>Item ${n}</title><link>https://a.test/${n}</link><description>Rapamycin extended lifespan in mice.</description></item></channel></rss>`,
    )
  })
})
afterAll(async () => {
  await feeds.stop()
})

const call = (path: string, options: Parameters<typeof api.call>[1] = {}) =>
  api.call(path, { cookie: operator, ...options })
const json = async (response: Response) => ({ status: response.status, body: await response.json() })
const invalid = (message: string) => ({
  status: 400,
  body: { error: { status: 400, code: 'invalid_parameter', message } },
})

const unjudged = (id: string) =>
  paperRow({
    id,
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

describe('POST /api/scrape', () => {
  test("scrapes every enabled source and answers with the counts, each source's outcome and the time taken", async () => {
    const [a, b, off] = await api.database.db
      .insert(rssSources)
      .values([
        { name: 'A', url: `${feeds.url}/1` },
        { name: 'Broken', url: `${feeds.url}/broken` },
        { name: 'Off', url: `${feeds.url}/3`, enabled: false },
      ])
      .returning()
    const { status, body } = await json(await call('/api/scrape', { method: 'POST' }))
    expect(status).toBe(200)
    expect(body.data).toEqual({
      run_id: expect.any(Number),
      job: 'scrape',
      status: 'partial',
      failure_count: 1,
      started_at: expect.any(String),
      finished_at: expect.any(String),
      duration_ms: expect.any(Number),
      counts: { sources: 2, failed: 1, not_modified: 0, items: 1, added: 1, linked: 0, skipped: 0, links_refused: 0 },
      sources: [
        {
          id: a.id,
          name: 'A',
          not_modified: false,
          items: 1,
          added: 1,
          linked: 0,
          skipped: 0,
          links_refused: 0,
          error: null,
        },
        {
          id: b.id,
          name: 'Broken',
          not_modified: false,
          items: 0,
          added: 0,
          linked: 0,
          skipped: 0,
          links_refused: 0,
          error: expect.stringContaining(''),
        },
      ],
    })
    expect(body.data.sources[1].error).not.toBeNull()
    const [run] = await api.database.db.select().from(jobRuns).where(eq(jobRuns.id, body.data.run_id))
    expect(run).toMatchObject({
      job: 'scrape',
      outcome: 'partial',
      error: 'the run went on past 1 failure (failed 1)',
      counts: { sources: 2, failed: 1, added: 1 },
    })
    expect(off.enabled).toBe(false)
  })

  test('scrapes only the named sources, a disabled one included', async () => {
    const [off] = await api.database.db
      .insert(rssSources)
      .values({ name: 'Named', url: `${feeds.url}/4`, enabled: false })
      .returning()
    const { body } = await json(await call('/api/scrape', { body: { source_ids: [off.id, off.id] } }))
    expect(body.data.counts).toMatchObject({ sources: 1, added: 1 })
    expect(body.data.sources.map((s: { id: number }) => s.id)).toEqual([off.id])
  })

  test.each([
    [{ source_ids: [999999, 999998] }, 'source_ids: no source with id 999999, 999998'],
    [{ source_ids: [] }, 'source_ids must have at least 1 item'],
    [{ source_ids: ['1'] }, 'source_ids[0] must be an integer (got string)'],
    [{ sources: [1] }, 'unknown field "sources"; this endpoint takes source_ids, wait'],
  ])('refuses %p', async (body, message) => {
    expect(await json(await call('/api/scrape', { body }))).toEqual(invalid(message))
  })

  test('a second request while a scrape runs is a 409 and starts nothing', async () => {
    let release!: () => void
    let started!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const begun = new Promise<void>((resolve) => {
      started = resolve
    })
    const running = runJob(
      api.database,
      'scrape',
      async () => {
        await held
        return {}
      },
      () => started(),
    )
    await begun // it holds the lock and has its job_runs row
    const before = (await api.database.db.select().from(jobRuns)).length
    const refused = await json(await call('/api/scrape', { method: 'POST' }))
    expect(refused).toEqual({
      status: 409,
      body: {
        error: {
          status: 409,
          code: 'conflict',
          message: 'job scrape is already running (in this or another process); try again when it ends',
        },
      },
    })
    expect((await api.database.db.select().from(jobRuns)).length).toBe(before)
    release()
    await running
    expect((await call('/api/scrape', { method: 'POST' })).status).toBe(200)
  })
})

describe('POST /api/analyze', () => {
  test('analyses pending papers and articles up to the limit, with the built-in analyzer', async () => {
    await insertPapers(api.database.db, ['MED-71', 'MED-72', 'MED-73'].map(unjudged))
    const { status, body } = await json(await call('/api/analyze', { body: { limit: 2 } }))
    expect(status).toBe(200)
    expect(body.data).toMatchObject({
      job: 'analyze',
      status: 'ok',
      failure_count: 0,
      analyzer: 'geroscope-builtin-1',
      failures: [],
      counts: { papers: 2, failed: 0 },
    })
    expect(body.data.counts.articles).toBeGreaterThan(0)
    expect(body.data.counts.articles).toBeLessThanOrEqual(2)
    const left = await api.database.db.select({ id: papers.id }).from(papers).where(isNull(papers.judgedAt))
    expect(left).toEqual([{ id: 'MED-73' }])
    const rest = await json(await call('/api/analyze', { method: 'POST' }))
    expect(rest.body.data.counts.papers).toBe(1)
    expect((await api.database.db.select().from(articles).where(isNull(articles.analysedAt))).length).toBe(0)
  })

  test('re-analyses exactly the papers and articles named, already analysed or not', async () => {
    await insertPapers(api.database.db, [unjudged('MED-81'), unjudged('MED-82')])
    const [article] = await api.database.db.select({ id: articles.id }).from(articles).limit(1)
    const { body } = await json(
      await call('/api/analyze', { body: { paper_ids: ['med-81'], article_ids: [article.id] } }),
    )
    expect(body.data.counts).toMatchObject({ papers: 1, articles: 1 })
    const judged = await api.database.db
      .select({ id: papers.id, at: papers.judgedAt })
      .from(papers)
      .where(eq(papers.id, 'MED-82'))
    expect(judged[0].at).toBeNull() // not named, left for the schedule
  })

  test.each([
    [{ paper_ids: ['MED-404404'] }, 'paper_ids: no paper with id MED-404404'],
    [{ article_ids: [999999] }, 'article_ids: no article with id 999999'],
    [{ paper_ids: ['PMC123'] }, 'paper_ids[0] must be a paper id like MED-39172536 (got "PMC123")'],
    [{ limit: 0 }, 'limit must be from 1 to 10,000 (got 0)'],
    [{ limit: 2.5 }, 'limit must be an integer (got 2.5)'],
    [
      { paper_ids: ['MED-81'], stale: true },
      'stale applies to pending work only; leave it out when naming paper_ids or article_ids',
    ],
    [{ papers: ['MED-81'] }, 'unknown field "papers"; this endpoint takes paper_ids, article_ids, limit, stale, wait'],
  ])('refuses %p', async (body, message) => {
    expect(await json(await call('/api/analyze', { body }))).toEqual(invalid(message))
  })
})

describe('GET /api/jobs', () => {
  test('lists runs newest first with status, counts, duration and error; filters and pages', async () => {
    await runJob(api.database, 'harvest', async () => {
      throw new Error('Europe PMC answered HTTP 500')
    }).catch(() => {})
    const all = (await json(await call('/api/jobs'))).body
    expect(all.data[0]).toEqual({
      id: expect.any(Number),
      job: 'harvest',
      status: 'failed',
      failure_count: 0,
      started_at: expect.any(String),
      finished_at: expect.any(String),
      duration_ms: expect.any(Number),
      elapsed_ms: expect.any(Number),
      counts: {},
      error: 'Europe PMC answered HTTP 500',
      progress: null,
      cancellable: false,
      cancel_requested_at: null,
      cancel_requested_by: null,
    })
    expect(all.data[0].elapsed_ms).toBe(all.data[0].duration_ms)
    const ids = all.data.map((r: { id: number }) => r.id)
    expect(ids).toEqual([...ids].sort((x: number, y: number) => y - x))
    const scrapes = (await json(await call('/api/jobs?job=scrape&status=ok&limit=1'))).body
    expect(scrapes.data).toHaveLength(1)
    expect(scrapes.data[0]).toMatchObject({ job: 'scrape', status: 'ok', error: null })
    expect(scrapes.pagination.has_more).toBe(true)
    const next = (
      await json(await call(`/api/jobs?job=scrape&status=ok&limit=1&cursor=${scrapes.pagination.next_cursor}`))
    ).body
    expect(next.data[0].id).toBeLessThan(scrapes.data[0].id)
    expect(next.data[0].job).toBe('scrape')
  })

  // The run a POST /api/scrape answered is listed with the same counts under the same names (snake_case, as every
  // other field of the admin interface), not under the job's JavaScript names (notModified).
  test("lists a run's counts under the names POST /api/scrape answers with", async () => {
    await api.database.db.insert(rssSources).values({ name: 'Counted', url: `${feeds.url}/5` })
    const scraped = (await json(await call('/api/scrape', { method: 'POST' }))).body.data
    const listed = (await json(await call('/api/jobs?job=scrape&limit=1'))).body.data[0]
    expect(listed.id).toBe(scraped.run_id)
    expect(listed.counts).toEqual(scraped.counts)
    expect(Object.keys(listed.counts)).toContain('not_modified')
    for (const name of Object.keys(listed.counts)) expect(name).toMatch(/^[a-z_]+$/)
  })

  test.each([
    ['/api/jobs?status=done', 'status has unknown value "done"; allowed: running, ok, partial, failed, cancelled'],
    ['/api/jobs?sort=asc', 'unknown parameter "sort"; this endpoint takes job, status, cursor, limit'],
    ['/api/jobs?cursor=abc', 'cursor is not a cursor this API issued'],
  ])('refuses %s', async (path, message) => {
    expect(await json(await call(path))).toEqual(invalid(message))
  })
})
