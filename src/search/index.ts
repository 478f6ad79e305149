/** Which search backend serves /api/v1/search, and the Meilisearch upkeep the workers and CLI run. */
import { sql } from 'drizzle-orm'
import { MeilisearchApiError, type Meilisearch } from 'meilisearch'
import type { Config } from '../config'
import { papers } from '../db/schema'
import type { Db } from '../db/client'
import type { JobCounts } from '../jobs/job-runs'
import type { SearchBackend } from './backend'
import { MeilisearchSearch, meiliClient } from './meilisearch/backend'
import { drainOutbox, ensureIndex, reindex } from './meilisearch/sync'
import { PostgresSearch } from './postgres'

export function searchBackend(db: Db, config: Pick<Config, 'meili'>): SearchBackend {
  return config.meili ? new MeilisearchSearch(db, config.meili) : new PostgresSearch(db)
}

/**
 * The worker job: send queued paper changes to Meilisearch (nothing to do without it). An empty
 * index (a new Meilisearch, or papers bulk-loaded by `seed`, which bypasses the outbox) is built in
 * full first.
 */
export async function syncSearchIndex(db: Db, config: Pick<Config, 'meili'>): Promise<JobCounts> {
  if (!config.meili) return {}
  const client = meiliClient(config.meili)
  const { index } = config.meili
  const documents = await documentCount(client, index)
  if (documents === null) await ensureIndex(client, index) // first run against this server
  if (!documents) {
    const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(papers)
    if (n > 0) return { reindexed: (await reindex(db, meiliClient({ ...config.meili, timeoutMs: 30_000 }), index)).papers }
  }
  return drainOutbox(db, client, index)
}

/** How many documents the index holds; null when it does not exist yet. */
async function documentCount(client: Meilisearch, index: string): Promise<number | null> {
  try {
    return (await client.index(index).getStats()).numberOfDocuments
  } catch (error) {
    if (error instanceof MeilisearchApiError && error.cause?.code === 'index_not_found') return null
    throw error
  }
}

/** `cli search reindex`: rebuild the Meilisearch index from every paper. */
export async function rebuildSearchIndex(db: Db, config: Pick<Config, 'meili'>, onProgress?: (done: number, total: number) => void) {
  if (!config.meili) throw new Error('MEILI_HOST is not set: PostgreSQL full-text search needs no index rebuild')
  return reindex(db, meiliClient({ ...config.meili, timeoutMs: 30_000 }), config.meili.index, onProgress)
}
