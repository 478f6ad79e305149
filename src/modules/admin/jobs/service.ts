/**
 * Operator-started runs of the scrape and the analysis: the same functions, under the same job
 * names and locks, as the schedule and the command line (src/jobs/), so a run asked for here never
 * overlaps a scheduled one, in this process or another; a run already going is a 409.
 */
import { and, desc, eq, inArray, lt } from 'drizzle-orm'
import { createAnalyzer } from '../../../pipeline/analysis/create-analyzer'
import { runAnalysis } from '../../../pipeline/analysis/pipeline'
import type { Config } from '../../../config'
import type { Database, Db } from '../../../db/client'
import { articles, jobRuns, papers, rssSources } from '../../../db/schema'
import { conflict, invalidParameter, notFound } from '../../../http/errors'
import { scrapeFeeds, type SourceResult } from '../../../pipeline/ingest/rss/scrape'
import { JobBusyError } from '../../../jobs/job-lock'
import { completedOutcome, failureCount, type JobCounts } from '../../../jobs/job-runs'
import { runJob, startJob } from '../../../jobs/run-job'
import { CANCELLABLE_JOBS, requestCancel, type RunControl } from '../../../jobs/run-control'
import { EXPORT_JOB, runExport } from '../../../pipeline/exports/run-export'
import { pager } from '../../../http/pager'
import type { JobStatus } from './model'

const MAX_FAILURES_SHOWN = 50

/**
 * A run's counts as the admin interface answers them, in the snake_case of its other fields: the jobs return
 * them as JavaScript names (notModified), and job_runs keeps what they return, so POST /api/scrape and
 * GET /api/jobs name the same count the same way.
 */
export function snakeCaseCounts<T extends JobCounts>(counts: T | null): SnakeCased<T> {
  const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
  return Object.fromEntries(Object.entries(counts ?? {}).map(([name, n]) => [snake(name), n])) as SnakeCased<T>
}

type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S
type SnakeCased<T> = { [K in keyof T as K extends string ? SnakeCase<K> : K]: T[K] }

/** A run's row as the admin interface shows it (GET /api/jobs, GET /api/jobs/runs/{id}). */
export function runView(r: typeof jobRuns.$inferSelect, now: Date) {
  const running = r.outcome === 'running'
  return {
    id: r.id,
    job: r.job,
    status: r.outcome as JobStatus,
    failure_count: failureCount(r.counts),
    started_at: r.startedAt.toISOString(),
    finished_at: r.finishedAt?.toISOString() ?? null,
    duration_ms: r.finishedAt ? r.finishedAt.getTime() - r.startedAt.getTime() : null,
    elapsed_ms: Math.max(0, (r.finishedAt ?? now).getTime() - r.startedAt.getTime()),
    progress:
      r.progressTotal === null
        ? null
        : { done: r.progressDone, total: r.progressTotal, unit: r.progressUnit ?? 'units' },
    cancellable: running && CANCELLABLE_JOBS.has(r.job),
    cancel_requested_at: r.cancelRequestedAt?.toISOString() ?? null,
    cancel_requested_by: r.cancelRequestedBy,
    counts: snakeCaseCounts(r.counts as JobCounts | null),
    error: r.error,
  }
}

export type RunView = ReturnType<typeof runView>

/** GET /api/jobs/runs/{id}: one run, running or ended, with its progress. */
export async function jobRun(db: Db, id: number, now = new Date()): Promise<RunView> {
  const [row] = await db.select().from(jobRuns).where(eq(jobRuns.id, id))
  if (!row) throw notFound(`no job run with id ${id}`)
  return runView(row, now)
}

/** POST /api/jobs/runs/{id}/cancel: asks the run to stop at its next unit, in whichever instance it runs. */
export async function cancelRun(db: Db, id: number, by: string): Promise<RunView> {
  const outcome = await requestCancel(db, id, by)
  if (outcome === 'unknown') throw notFound(`no job run with id ${id}`)
  const run = await jobRun(db, id)
  if (outcome === 'finished') throw conflict(`job run ${id} already ended (${run.status}); there is nothing to cancel`)
  if (outcome === 'not-cancellable') {
    throw conflict(`runs of ${run.job} do not stop part-way; only scrape, analyze and export runs can be cancelled`)
  }
  return run
}

/**
 * Runs a job as the scheduler does, under the same lock (a run already going is a 409 conflict): waits for it
 * and times it (status 200), or with `wait` false starts it and answers its row at once (202; the run goes on in
 * this process).
 */
async function timedRun<T extends JobCounts>(
  database: Database,
  job: string,
  work: (control: RunControl) => Promise<T>,
  wait: boolean,
) {
  try {
    if (!wait) {
      const { runId } = await startJob(database, job, work)
      return { status: 202 as const, data: await jobRun(database.db, runId) }
    }
    const started = new Date()
    const t0 = performance.now()
    let runId = 0
    const counts = (await runJob(database, job, work, (id) => {
      runId = id
    })) as T
    const [row] = await database.db.select({ outcome: jobRuns.outcome }).from(jobRuns).where(eq(jobRuns.id, runId))
    const status = (row?.outcome ?? completedOutcome(counts).outcome) as 'ok' | 'partial' | 'cancelled'
    return {
      status: 200 as const,
      data: {
        run_id: runId,
        job,
        status,
        failure_count: failureCount(counts),
        started_at: started.toISOString(),
        finished_at: new Date().toISOString(),
        duration_ms: Math.round(performance.now() - t0),
        counts,
      },
    }
  } catch (error) {
    if (error instanceof JobBusyError) throw conflict(error.message)
    throw error
  }
}

function missingIds<T extends string | number>(wanted: T[], found: T[]): T[] {
  const have = new Set(found)
  return wanted.filter((id) => !have.has(id))
}

export async function scrapeNow(
  database: Database,
  config: Pick<Config, 'scrapeAllowPrivate'>,
  sourceIds?: number[],
  wait = true,
) {
  if (sourceIds) {
    const found = await database.db
      .select({ id: rssSources.id })
      .from(rssSources)
      .where(inArray(rssSources.id, sourceIds))
    const missing = missingIds(
      sourceIds,
      found.map((r) => r.id),
    )
    if (missing.length) throw invalidParameter(`source_ids: no source with id ${missing.join(', ')}`)
  }
  const results: SourceResult[] = []
  const run = await timedRun(
    database,
    'scrape',
    (control) => scrapeFeeds(database, config, { sourceIds, onSource: (r) => results.push(r), control }),
    wait,
  )
  if (run.status === 202) return run
  return {
    status: run.status,
    data: {
      ...run.data,
      counts: snakeCaseCounts(run.data.counts),
      sources: results
        .sort((a, b) => a.id - b.id)
        .map((r) => ({
          id: r.id,
          name: r.name,
          not_modified: r.notModified,
          items: r.items,
          added: r.added,
          linked: r.linked,
          skipped: r.skipped,
          links_refused: r.linksRefused,
          error: r.error,
        })),
    },
  }
}

export type AnalyzeRequest = {
  paper_ids?: string[]
  article_ids?: number[]
  limit?: number
  stale?: boolean
  wait?: boolean
}

export async function analyzeNow(database: Database, config: Pick<Config, 'llm'>, request: AnalyzeRequest) {
  const { db } = database
  const named = request.paper_ids !== undefined || request.article_ids !== undefined
  if (named && request.stale)
    throw invalidParameter('stale applies to pending work only; leave it out when naming paper_ids or article_ids')
  const only = named ? await namedWork(db, request) : undefined
  const limit = request.limit ?? (config.llm ? 50 : 1000)
  const analyzer = createAnalyzer(db, config)
  const failures: string[] = []
  const run = await timedRun(
    database,
    'analyze',
    (control) =>
      runAnalysis(db, analyzer, {
        only,
        limit,
        articleLimit: limit,
        stale: request.stale ?? false,
        control,
        onFailure: (message) => {
          if (failures.length < MAX_FAILURES_SHOWN) failures.push(message)
        },
      }),
    request.wait ?? true,
  )
  if (run.status === 202) return run
  return {
    status: run.status,
    data: { ...run.data, counts: snakeCaseCounts(run.data.counts), analyzer: analyzer.model, failures },
  }
}

/** POST /api/export: the bulk export (the nightly job) now, into EXPORT_DIR. */
export async function exportNow(database: Database, config: Pick<Config, 'exportDir' | 'publicBaseUrl'>, wait = true) {
  const run = await timedRun(database, EXPORT_JOB, (control) => runExport(database, config, { control }), wait)
  if (run.status === 202) return run
  return { status: run.status, data: { ...run.data, counts: snakeCaseCounts(run.data.counts) } }
}

async function namedWork(db: Db, request: AnalyzeRequest) {
  const paperIds = [...new Set((request.paper_ids ?? []).map((id) => id.toUpperCase()))]
  const articleIds = request.article_ids ?? []
  if (paperIds.length) {
    const found = await db.select({ id: papers.id }).from(papers).where(inArray(papers.id, paperIds))
    const missing = missingIds(
      paperIds,
      found.map((r) => r.id),
    )
    if (missing.length) throw invalidParameter(`paper_ids: no paper with id ${missing.join(', ')}`)
  }
  if (articleIds.length) {
    const found = await db.select({ id: articles.id }).from(articles).where(inArray(articles.id, articleIds))
    const missing = missingIds(
      articleIds,
      found.map((r) => r.id),
    )
    if (missing.length) throw invalidParameter(`article_ids: no article with id ${missing.join(', ')}`)
  }
  return { paperIds, articleIds }
}

export type JobQuery = { job?: string; status?: string[]; cursor?: string; limit?: number }

/** Job runs newest first (id descending), paged like the Data API. */
export async function jobRunPage(db: Db, secret: string, query: JobQuery) {
  const filters = { job: query.job, status: query.status }
  const paging = pager(secret, 'admin-jobs', filters, query)
  const rows = await db
    .select()
    .from(jobRuns)
    .where(
      and(
        query.job ? eq(jobRuns.job, query.job) : undefined,
        query.status ? inArray(jobRuns.outcome, query.status) : undefined,
        paging.after ? lt(jobRuns.id, Number(paging.after[0])) : undefined,
      ),
    )
    .orderBy(desc(jobRuns.id))
    .limit(paging.limit + 1)
  const { items, pagination } = paging.page(rows, (r) => [r.id])
  const now = new Date()
  return {
    data: items.map((r) => runView(r, now)),
    pagination,
  }
}
