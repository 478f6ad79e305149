/**
 * Operator-started runs of the scrape and the analysis: the same functions, under the same job
 * names and locks, as the schedule and the command line (src/jobs/), so a run asked for here never
 * overlaps a scheduled one, in this process or another; a run already going is a 409.
 */
import { and, desc, eq, inArray, lt } from 'drizzle-orm'
import { createAnalyzer } from '../../../analysis/create-analyzer'
import { runAnalysis } from '../../../analysis/pipeline'
import type { Config } from '../../../config'
import type { Database, Db } from '../../../db/client'
import { articles, jobRuns, papers, rssSources } from '../../../db/schema'
import { conflict, invalidParameter } from '../../../http/errors'
import { scrapeFeeds, type SourceResult } from '../../../ingest/rss/scrape'
import { JobBusyError } from '../../../jobs/job-lock'
import { completedOutcome, failureCount, type JobCounts } from '../../../jobs/job-runs'
import { runJob } from '../../../jobs/run-job'
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
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}` : S
type SnakeCased<T> = { [K in keyof T as K extends string ? SnakeCase<K> : K]: T[K] }

/** Runs a job as the scheduler does and times it; a run already going is a 409 conflict. */
async function timedRun<T extends JobCounts>(database: Database, job: string, work: () => Promise<T>) {
  const started = new Date()
  const t0 = performance.now()
  let runId = 0
  try {
    const counts = await runJob(database, job, work, (id) => { runId = id }) as T
    return {
      run_id: runId, job, status: completedOutcome(counts).outcome, failure_count: failureCount(counts),
      started_at: started.toISOString(), finished_at: new Date().toISOString(),
      duration_ms: Math.round(performance.now() - t0), counts,
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

export async function scrapeNow(database: Database, config: Pick<Config, 'scrapeAllowPrivate'>, sourceIds?: number[]) {
  if (sourceIds) {
    const found = await database.db.select({ id: rssSources.id }).from(rssSources).where(inArray(rssSources.id, sourceIds))
    const missing = missingIds(sourceIds, found.map((r) => r.id))
    if (missing.length) throw invalidParameter(`source_ids: no source with id ${missing.join(', ')}`)
  }
  const results: SourceResult[] = []
  const run = await timedRun(database, 'scrape', () => scrapeFeeds(database, config, { sourceIds, onSource: (r) => results.push(r) }))
  return {
    ...run,
    counts: snakeCaseCounts(run.counts),
    sources: results.sort((a, b) => a.id - b.id).map((r) => ({
      id: r.id, name: r.name, not_modified: r.notModified, items: r.items, added: r.added, linked: r.linked,
      skipped: r.skipped, links_refused: r.linksRefused, error: r.error,
    })),
  }
}

export type AnalyzeRequest = { paper_ids?: string[]; article_ids?: number[]; limit?: number; stale?: boolean }

export async function analyzeNow(database: Database, config: Pick<Config, 'llm'>, request: AnalyzeRequest) {
  const { db } = database
  const named = request.paper_ids !== undefined || request.article_ids !== undefined
  if (named && request.stale) throw invalidParameter('stale applies to pending work only; leave it out when naming paper_ids or article_ids')
  const only = named ? await namedWork(db, request) : undefined
  const limit = request.limit ?? (config.llm ? 50 : 1000)
  const analyzer = createAnalyzer(db, config)
  const failures: string[] = []
  const run = await timedRun(database, 'analyze', () => runAnalysis(db, analyzer, {
    only, limit, articleLimit: limit, stale: request.stale ?? false,
    onFailure: (message) => { if (failures.length < MAX_FAILURES_SHOWN) failures.push(message) },
  }))
  return { ...run, counts: snakeCaseCounts(run.counts), analyzer: analyzer.model, failures }
}

async function namedWork(db: Db, request: AnalyzeRequest) {
  const paperIds = [...new Set((request.paper_ids ?? []).map((id) => id.toUpperCase()))]
  const articleIds = request.article_ids ?? []
  if (paperIds.length) {
    const found = await db.select({ id: papers.id }).from(papers).where(inArray(papers.id, paperIds))
    const missing = missingIds(paperIds, found.map((r) => r.id))
    if (missing.length) throw invalidParameter(`paper_ids: no paper with id ${missing.join(', ')}`)
  }
  if (articleIds.length) {
    const found = await db.select({ id: articles.id }).from(articles).where(inArray(articles.id, articleIds))
    const missing = missingIds(articleIds, found.map((r) => r.id))
    if (missing.length) throw invalidParameter(`article_ids: no article with id ${missing.join(', ')}`)
  }
  return { paperIds, articleIds }
}

export type JobQuery = { job?: string; status?: string[]; cursor?: string; limit?: number }

/** Job runs newest first (id descending), paged like the Data API. */
export async function jobRunPage(db: Db, secret: string, query: JobQuery) {
  const filters = { job: query.job, status: query.status }
  const paging = pager(secret, 'admin-jobs', filters, query)
  const rows = await db.select().from(jobRuns)
    .where(and(
      query.job ? eq(jobRuns.job, query.job) : undefined,
      query.status ? inArray(jobRuns.outcome, query.status) : undefined,
      paging.after ? lt(jobRuns.id, Number(paging.after[0])) : undefined,
    ))
    .orderBy(desc(jobRuns.id)).limit(paging.limit + 1)
  const { items, pagination } = paging.page(rows, (r) => [r.id])
  return {
    data: items.map((r) => ({
      id: r.id,
      job: r.job,
      status: r.outcome as JobStatus,
      failure_count: failureCount(r.counts),
      started_at: r.startedAt.toISOString(),
      finished_at: r.finishedAt?.toISOString() ?? null,
      duration_ms: r.finishedAt ? r.finishedAt.getTime() - r.startedAt.getTime() : null,
      counts: snakeCaseCounts(r.counts as JobCounts | null),
      error: r.error,
    })),
    pagination,
  }
}
