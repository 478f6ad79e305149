/**
 * Selects the work (papers not yet judged or extracted, feed articles not yet analysed), runs the
 * analyzer on it with its concurrency limit, and stores each result in its own transaction. A paper
 * the analyzer fails on is counted and left for the next run; it never stops the others.
 */
import { and, asc, gt, inArray, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { articles, papers } from '../../db/schema'
import type { JobCounts } from '../../jobs/job-runs'
import { NO_CONTROL, type RunControl } from '../../jobs/run-control'
import { resolveClaimSides } from './resolve-claim-sides'
import type { Analyzer } from './analyzer'
import { storeArticleAnalysis, storePaperAnalysis } from './store'
import type { PaperInput } from './types'
import { log } from '../../log'

export type AnalysisOptions = {
  /** Most papers to analyse in this run (the scheduled job bounds its work). */
  limit?: number
  /** Most feed articles to analyse in this run; all pending ones by default. */
  articleLimit?: number
  /** Exactly these papers and articles, analysed or not (an operator's request), instead of the pending ones. */
  only?: { paperIds: string[]; articleIds: number[] }
  /** Also redo papers judged with another prompt version than the analyzer's current one. */
  stale?: boolean
  batchSize?: number
  /** Papers stored at once (each in its own transaction); default 4, so database round trips overlap. */
  storeConcurrency?: number
  onProgress?: (done: number, total: number) => void
  /**
   * The run's progress (done of the papers and articles) and its cancel: once a cancel is seen no further paper or
   * article is started; those in progress are stored (each in its own transaction) and the run returns its counts.
   */
  control?: RunControl
  /** Where failures are reported (the run goes on); default: one line on stderr. */
  onFailure?: (message: string) => void
}

const paperColumns = {
  id: papers.id,
  title: papers.title,
  abstract: papers.abstract,
  journal: papers.journal,
  preprint: papers.preprint,
  publicationTypes: papers.publicationTypes,
  meshHeadings: papers.meshHeadings,
  keywords: papers.keywords,
  chemicals: papers.chemicals,
}

function pending(currentVersions: string[] | null): SQL {
  const undone = or(isNull(papers.judgedAt), isNull(papers.extractedAt))!
  return currentVersions === null ? undone : or(undone, notInArray(papers.judgementPromptVersion, currentVersions))!
}

/** The prompt versions a paper judged now could carry; a stale run redoes the others. */
const currentVersions = async (analyzer: Analyzer) =>
  analyzer.promptVersions ? analyzer.promptVersions() : [await analyzer.promptVersion()]

/** Deadlocks, serialization failures and unique races clear up when the transaction is simply run again. */
const TRANSIENT = new Set(['40P01', '40001', '23505'])
function isTransient(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === 'string' && TRANSIENT.has(e.code)) return true
  }
  return false
}

async function withRetry<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work()
    } catch (error) {
      if (attempt >= attempts || !isTransient(error)) throw error
    }
  }
}

/** Runs `work` over `items` with at most `limit` at a time, in order of start. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++])
  })
  await Promise.all(lanes)
}

export async function countPending(
  db: Db,
  analyzer: Analyzer,
  stale = false,
): Promise<{ papers: number; articles: number }> {
  const versions = stale ? await currentVersions(analyzer) : null
  const [p] = await db.select({ n: sql<number>`count(*)::int` }).from(papers).where(pending(versions))
  const [a] = await db.select({ n: sql<number>`count(*)::int` }).from(articles).where(isNull(articles.analysedAt))
  return { papers: p.n, articles: a.n }
}

export async function runAnalysis(db: Db, analyzer: Analyzer, options: AnalysisOptions = {}): Promise<JobCounts> {
  const version = await analyzer.promptVersion()
  const { only } = options
  const limit = options.limit ?? Number.MAX_SAFE_INTEGER
  const articleLimit = options.articleLimit ?? Number.MAX_SAFE_INTEGER
  const batchSize = options.batchSize ?? 200
  // The analyzer's own limit bounds model requests; storing can overlap beyond it on a pooled database.
  const lanes = Math.max(analyzer.concurrency, options.storeConcurrency ?? 4)
  const total = only
    ? { papers: only.paperIds.length, articles: only.articleIds.length }
    : await countPending(db, analyzer, options.stale)
  const totalWork = Math.min(total.papers, limit) + Math.min(total.articles, articleLimit)
  const paperWork = only
    ? inArray(papers.id, only.paperIds)
    : pending(options.stale ? await currentVersions(analyzer) : null)
  const articleWork = only ? inArray(articles.id, only.articleIds) : isNull(articles.analysedAt)
  const counts = {
    papers: 0,
    failed: 0,
    stories: 0,
    stories_held: 0,
    entities: 0,
    claims: 0,
    judgements_changed: 0,
    articles: 0,
    articles_failed: 0,
  }
  const fail = options.onFailure ?? ((message: string) => log.error(message))
  let done = 0
  const control = options.control ?? NO_CONTROL
  await control.begin(totalWork, 'items')
  const tick = async () => {
    options.onProgress?.(++done, totalWork)
    await control.advance()
  }
  let stopping = false
  /** Before each paper or article: once a cancel is seen, no further one starts. */
  const stop = async () => (stopping ||= await control.shouldStop())

  // Keyset over ids so a paper that failed is not picked again within the same run.
  let after = ''
  while (counts.papers + counts.failed < limit && total.papers > 0 && !(await stop())) {
    const batch: PaperInput[] = await db
      .select(paperColumns)
      .from(papers)
      .where(and(paperWork, gt(papers.id, after)))
      .orderBy(asc(papers.id))
      .limit(Math.min(batchSize, limit - counts.papers - counts.failed))
    if (batch.length === 0) break
    after = batch[batch.length - 1].id
    await eachLimited(batch, lanes, async (paper) => {
      if (await stop()) return
      try {
        const analysis = await analyzer.analyzePaper(paper)
        const by = analysis.judgedBy ?? { model: analyzer.model, promptVersion: version }
        const stored = await withRetry(() => storePaperAnalysis(db, paper.id, analysis, by.model, by.promptVersion))
        counts.papers++
        counts.stories += stored.story ? 1 : 0
        counts.stories_held += stored.storyHeld ? 1 : 0
        counts.entities += stored.entities
        counts.claims += stored.claims
        counts.judgements_changed += stored.judgementChanged ? 1 : 0
      } catch (error) {
        counts.failed++
        fail(`analysis of ${paper.id} failed: ${error instanceof Error ? error.message : String(error)}`)
      }
      await tick()
    })
  }

  const articleVersion = await analyzer.articlePromptVersion()
  let afterArticle = 0
  while (counts.articles + counts.articles_failed < articleLimit && total.articles > 0 && !(await stop())) {
    const batch = await db
      .select({ id: articles.id, title: articles.title, summary: articles.summary, link: articles.link })
      .from(articles)
      .where(and(articleWork, gt(articles.id, afterArticle)))
      .orderBy(asc(articles.id))
      .limit(Math.min(batchSize, articleLimit - counts.articles - counts.articles_failed))
    if (batch.length === 0) break
    afterArticle = batch[batch.length - 1].id
    await eachLimited(batch, lanes, async (article) => {
      if (await stop()) return
      try {
        await storeArticleAnalysis(
          db,
          article.id,
          await analyzer.analyzeArticle(article),
          analyzer.model,
          articleVersion,
        )
        counts.articles++
      } catch (error) {
        counts.articles_failed++
        fail(`analysis of article ${article.id} failed: ${error instanceof Error ? error.message : String(error)}`)
      }
      await tick()
    })
  }
  // Claims stored before their sides could be read as entities (the demo corpus, older analyzers, an older lexicon).
  const sides = await resolveClaimSides(db)
  const usage = analyzer.usage()
  return {
    ...counts,
    claim_sides_resolved: sides.resolved,
    llm_requests: usage.requests,
    llm_retries: usage.retries,
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
  }
}
