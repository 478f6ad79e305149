/** Which search backend serves /api/v1/search, and the Meilisearch upkeep the workers and CLI run. */
import type { Config } from '../config'
import type { Db } from '../db/client'
import type { JobCounts } from '../jobs/job-runs'
import type { SearchBackend } from './backend'
import { MeilisearchSearch, meiliClient } from './meilisearch/backend'
import { drainOutbox, ensureIndex, reindex } from './meilisearch/sync'
import { PostgresSearch } from './postgres'

export function searchBackend(db: Db, config: Pick<Config, 'meili'>): SearchBackend {
  return config.meili ? new MeilisearchSearch(db, config.meili) : new PostgresSearch(db)
}

/** The worker job: send queued paper changes to Meilisearch (nothing to do without it). */
export async function syncSearchIndex(db: Db, config: Pick<Config, 'meili'>): Promise<JobCounts> {
  if (!config.meili) return {}
  const client = meiliClient(config.meili)
  await ensureIndex(client, config.meili.index)
  return drainOutbox(db, client, config.meili.index)
}

/** `cli search reindex`: rebuild the Meilisearch index from every paper. */
export async function rebuildSearchIndex(db: Db, config: Pick<Config, 'meili'>, onProgress?: (done: number, total: number) => void) {
  if (!config.meili) throw new Error('MEILI_HOST is not set: PostgreSQL full-text search needs no index rebuild')
  return reindex(db, meiliClient({ ...config.meili, timeoutMs: 30_000 }), config.meili.index, onProgress)
}
