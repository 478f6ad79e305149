/**
 * The scrape job: every enabled source is fetched (fetch.ts), decoded (decode.ts), parsed
 * (parse.ts) and its new articles stored (store.ts). A source that fails in any way (network,
 * HTTP status, size, encoding, not a feed) records the error and its failure count on its own
 * row and the others carry on. Articles and the source's success are written in one transaction.
 */
import { asc, eq, inArray, sql } from 'drizzle-orm'
import type { Config } from '../../config'
import type { Database } from '../../db/client'
import { rssSources } from '../../db/schema'
import { decodeFeed } from './decode'
import { FEED_FETCH_DEFAULTS, fetchFeed, type FeedFetchOptions } from './fetch'
import { parseFeed } from './parse'
import { storeArticles } from './store'

export type SourceResult = {
  id: number; name: string; notModified: boolean; items: number; added: number; linked: number; error: string | null
}

export type ScrapeCounts = { sources: number; failed: number; notModified: number; items: number; added: number; linked: number }

export type ScrapeOptions = {
  fetch?: Partial<FeedFetchOptions>
  concurrency?: number // feeds fetched at once; different hosts mostly, so a few in parallel is polite
  sourceIds?: number[] // exactly these sources, enabled or not (an operator asked); default: every enabled one
  onSource?: (result: SourceResult) => void
}

type Source = typeof rssSources.$inferSelect

async function scrapeSource(database: Database, source: Source, options: FeedFetchOptions): Promise<SourceResult> {
  const result: SourceResult = { id: source.id, name: source.name, notModified: false, items: 0, added: 0, linked: 0, error: null }
  const now = new Date()
  try {
    const response = await fetchFeed(source.url, { etag: source.etag, lastModified: source.lastModified }, options)
    if (response.notModified) {
      result.notModified = true
      await database.db.update(rssSources).set({ lastFetchedAt: now, lastSuccessAt: now, lastError: null, consecutiveFailures: 0 })
        .where(eq(rssSources.id, source.id))
      return result
    }
    const items = await parseFeed(decodeFeed(response.bytes, response.contentType).text)
    result.items = items.length
    await database.db.transaction(async (tx) => {
      const stored = await storeArticles(tx, source.id, items)
      result.added = stored.added
      result.linked = stored.linked
      await tx.update(rssSources).set({
        etag: response.validators.etag, lastModified: response.validators.lastModified,
        lastFetchedAt: now, lastSuccessAt: now, lastError: null, consecutiveFailures: 0,
      }).where(eq(rssSources.id, source.id))
    })
  } catch (error) {
    result.error = (error instanceof Error ? error.message : String(error)).slice(0, 500)
    await database.db.update(rssSources).set({
      lastFetchedAt: now, lastError: result.error, consecutiveFailures: sql`${rssSources.consecutiveFailures} + 1`,
    }).where(eq(rssSources.id, source.id))
  }
  return result
}

export async function scrapeFeeds(database: Database, config: Pick<Config, 'scrapeAllowPrivate'>, options: ScrapeOptions = {}): Promise<ScrapeCounts> {
  const fetchOptions = { ...FEED_FETCH_DEFAULTS, allowPrivate: config.scrapeAllowPrivate, ...options.fetch }
  const which = options.sourceIds ? inArray(rssSources.id, options.sourceIds) : eq(rssSources.enabled, true)
  const sources = await database.db.select().from(rssSources).where(which).orderBy(asc(rssSources.id))
  const counts: ScrapeCounts = { sources: sources.length, failed: 0, notModified: 0, items: 0, added: 0, linked: 0 }
  let next = 0
  const worker = async () => {
    while (next < sources.length) {
      const result = await scrapeSource(database, sources[next++], fetchOptions)
      if (result.error) counts.failed++
      if (result.notModified) counts.notModified++
      counts.items += result.items
      counts.added += result.added
      counts.linked += result.linked
      options.onSource?.(result)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker))
  return counts
}
