/**
 * The scrape job: every enabled source is fetched (fetch.ts), decoded (decode.ts), parsed
 * (parse.ts, article.ts) and its new articles stored (store.ts). A source that fails in any way
 * (network, HTTP status, size, encoding, not a feed, a write the database refuses) records the
 * error and its failure count on its own row, and the others carry on: nothing that happens while
 * scraping one source, not even failing to record its error, escapes to the run.
 * Articles and the source's success are written in one transaction.
 */
import { asc, eq, inArray, sql } from 'drizzle-orm'
import type { Config } from '../../../config'
import type { Database } from '../../../db/client'
import { rssSources } from '../../../db/schema'
import { errorText, storableText } from '../../../db/storable-text'
import { decodeFeed } from './decode'
import { FEED_FETCH_DEFAULTS, fetchFeed, type FeedFetchOptions } from './fetch'
import { parseFeed } from './parse'
import { storeArticles } from './store'
import { NO_CONTROL, type RunControl } from '../../../jobs/run-control'

/** items: what the feed held; skipped: items that could not be kept; linksRefused: links that were not http(s) URLs. */
export type SourceResult = {
  id: number
  name: string
  notModified: boolean
  items: number
  added: number
  linked: number
  skipped: number
  linksRefused: number
  error: string | null
}

export type ScrapeCounts = {
  sources: number
  failed: number
  notModified: number
  items: number
  added: number
  linked: number
  skipped: number
  linksRefused: number
}

export type ScrapeOptions = {
  fetch?: Partial<FeedFetchOptions>
  concurrency?: number // feeds fetched at once; different hosts mostly, so a few in parallel is polite
  sourceIds?: number[] // exactly these sources, enabled or not (an operator asked); default: every enabled one
  onSource?: (result: SourceResult) => void
  /**
   * The run's progress (done of the sources) and its cancel: no source is started once a cancel is seen; those in
   * progress finish.
   */
  control?: RunControl
}

type Source = typeof rssSources.$inferSelect

const validator = (value: string | null) => (value === null ? null : storableText(value).slice(0, 1000))

async function scrapeSource(
  database: Database,
  source: Source,
  options: FeedFetchOptions,
  result: SourceResult,
): Promise<void> {
  const now = new Date()
  const response = await fetchFeed(source.url, { etag: source.etag, lastModified: source.lastModified }, options)
  if (response.notModified) {
    result.notModified = true
    await database.db
      .update(rssSources)
      .set({ lastFetchedAt: now, lastSuccessAt: now, lastError: null, consecutiveFailures: 0 })
      .where(eq(rssSources.id, source.id))
    return
  }
  const feed = await parseFeed(decodeFeed(response.bytes, response.contentType).text)
  result.items = feed.articles.length + feed.itemsSkipped
  result.skipped = feed.itemsSkipped
  result.linksRefused = feed.linksRefused
  await database.db.transaction(async (tx) => {
    const stored = await storeArticles(tx, source.id, feed.articles)
    result.added = stored.added
    result.linked = stored.linked
    await tx
      .update(rssSources)
      .set({
        etag: validator(response.validators.etag),
        lastModified: validator(response.validators.lastModified),
        lastFetchedAt: now,
        lastSuccessAt: now,
        lastError: null,
        consecutiveFailures: 0,
      })
      .where(eq(rssSources.id, source.id))
  })
}

/** Scrapes one source and never throws: a failure ends up in its result and, if it can be written, on its row. */
async function scrapeIsolated(database: Database, source: Source, options: FeedFetchOptions): Promise<SourceResult> {
  const result: SourceResult = {
    id: source.id,
    name: source.name,
    notModified: false,
    items: 0,
    added: 0,
    linked: 0,
    skipped: 0,
    linksRefused: 0,
    error: null,
  }
  try {
    await scrapeSource(database, source, options, result)
  } catch (error) {
    Object.assign(result, { added: 0, linked: 0, error: errorText(error) }) // the transaction kept none of them
    try {
      await database.db
        .update(rssSources)
        .set({
          lastFetchedAt: new Date(),
          lastError: result.error,
          consecutiveFailures: sql`${rssSources.consecutiveFailures} + 1`,
        })
        .where(eq(rssSources.id, source.id))
    } catch (writeError) {
      // The database itself is failing (or the row is gone): the run reports it, the other sources still get their
      // turn.
      result.error += ` (and recording it failed: ${errorText(writeError, 200)})`
    }
  }
  return result
}

export async function scrapeFeeds(
  database: Database,
  config: Pick<Config, 'scrapeAllowPrivate'>,
  options: ScrapeOptions = {},
): Promise<ScrapeCounts> {
  const fetchOptions = { ...FEED_FETCH_DEFAULTS, allowPrivate: config.scrapeAllowPrivate, ...options.fetch }
  const which = options.sourceIds ? inArray(rssSources.id, options.sourceIds) : eq(rssSources.enabled, true)
  const sources = await database.db.select().from(rssSources).where(which).orderBy(asc(rssSources.id))
  // sources: the sources scraped, all of them unless the run was cancelled part-way
  const counts: ScrapeCounts = {
    sources: 0,
    failed: 0,
    notModified: 0,
    items: 0,
    added: 0,
    linked: 0,
    skipped: 0,
    linksRefused: 0,
  }
  const control = options.control ?? NO_CONTROL
  await control.begin(sources.length, 'sources')
  let next = 0
  const worker = async () => {
    while (next < sources.length) {
      if (await control.shouldStop('now')) return // one short read before each feed fetched
      if (next >= sources.length) return // another lane took the last one while this one asked
      const result = await scrapeIsolated(database, sources[next++], fetchOptions)
      counts.sources++
      if (result.error) counts.failed++
      if (result.notModified) counts.notModified++
      counts.items += result.items
      counts.added += result.added
      counts.linked += result.linked
      counts.skipped += result.skipped
      counts.linksRefused += result.linksRefused
      try {
        options.onSource?.(result)
      } catch {
        // a reporter that fails (a closed stderr) must not cost the remaining sources their turn
      }
      await control.advance()
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker))
  return counts
}
