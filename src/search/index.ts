/** Which search backend serves /api/v1/search, and the Meilisearch upkeep the workers and CLI run. */
import { sql } from 'drizzle-orm'
import { MeilisearchApiError, type Meilisearch } from 'meilisearch'
import type { Config } from '../config'
import { papers } from '../db/schema'
import type { Database, Db } from '../db/client'
import type { JobCounts } from '../jobs/job-runs'
import { runJob } from '../jobs/run-job'
import type { SearchBackend } from './backend'
import { MeilisearchSearch, meiliClient } from './meilisearch/backend'
import { drainOutbox, ensureIndex, reindex, settingsOutdated, updateSynonyms } from './meilisearch/sync'
import { PostgresSearch } from './postgres'

/** The worker job that keeps Meilisearch in step (src/lifecycle/workers.ts); a rebuild runs under its name. */
export const SEARCH_SYNC_JOB = 'search-sync'

export function searchBackend(db: Db, config: Pick<Config, 'meili'>): SearchBackend {
  return config.meili ? new MeilisearchSearch(db, config.meili) : new PostgresSearch(db)
}

/**
 * The worker job: send queued paper changes to Meilisearch (nothing to do without it). An empty
 * index (a new Meilisearch, or papers bulk-loaded by `seed`, which bypasses the outbox), or one set
 * up by an older version (documents with keywords and MeSH, a lower bound), is built in full first;
 * one whose synonyms are older than the lexicon gets the lexicon's.
 */
export async function syncSearchIndex(db: Db, config: Pick<Config, 'meili'>): Promise<JobCounts> {
  if (!config.meili) return {}
  const client = meiliClient(config.meili)
  const { index } = config.meili
  const documents = await documentCount(client, index)
  if (documents === null) await ensureIndex(client, index) // first run against this server
  const state = documents !== null ? await settingsOutdated(client, index) : null
  // A changed lexicon: its synonyms are put in place, the documents stay.
  if (state === 'synonyms') await updateSynonyms(client, index)
  const outdated = state === 'rebuild'
  if (!documents || outdated) {
    const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(papers)
    if (n > 0)
      return { reindexed: (await reindex(db, meiliClient({ ...config.meili, timeoutMs: 30_000 }), index)).papers }
    if (outdated) await ensureIndex(client, index)
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

/**
 * `cli search reindex`: rebuild the Meilisearch index from every paper, as a run of the search-sync
 * job. The two must never overlap: a drain during a rebuild would send changes to the old index and
 * delete them from the outbox, and the swap would then install a rebuild that read those papers
 * before they changed. Held apart, changes made during a rebuild wait in the outbox until after
 * the swap (sync.ts). A second rebuild, or one started while the worker drains, is refused.
 */
export async function rebuildSearchIndex(
  database: Database,
  config: Pick<Config, 'meili'>,
  onProgress?: (done: number, total: number) => void,
) {
  const meili = config.meili
  if (!meili) throw new Error('MEILI_HOST is not set: PostgreSQL full-text search needs no index rebuild')
  const counts = await runJob(database, SEARCH_SYNC_JOB, async () => ({
    reindexed: (await reindex(database.db, meiliClient({ ...meili, timeoutMs: 30_000 }), meili.index, onProgress))
      .papers,
  }))
  return { papers: counts.reindexed }
}
