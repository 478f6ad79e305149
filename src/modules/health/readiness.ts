/**
 * What /readyz checks: the database answers, every migration this build ships has been applied, and
 * which search backend serves /api/v1/search (and whether Meilisearch answers). A Meilisearch that is
 * down does not make the service unready: search falls back to PostgreSQL full text.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import type { Config } from '../../config'
import type { Database } from '../../db/client'
import { migrationsFolder } from '../../db/migrate'
import { meiliClient } from '../../search/meilisearch/backend'

/** The migrations this build ships: how many, and the creation time drizzle records for the newest. */
export function shippedMigrations(folder = migrationsFolder): { count: number; latest: number } {
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[]
  }
  return { count: journal.entries.length, latest: Math.max(...journal.entries.map((e) => e.when)) }
}

export type MigrationState = { applied: number; expected: number; current: boolean }

/**
 * One small query on drizzle's own bookkeeping table; it also proves the database answers. An older
 * build running beside a newer one (a rolling upgrade) finds newer migrations than its own, which
 * is fine: "current" means none of ours is missing.
 */
export async function migrationState(database: Database, shipped = shippedMigrations()): Promise<MigrationState> {
  const [row] = await database.rows<{ applied: number; latest: string | null }>(sql`
    select count(*)::int as applied, max(created_at)::text as latest from drizzle.__drizzle_migrations`)
  const latest = row.latest === null ? 0 : Number(row.latest)
  return {
    applied: row.applied,
    expected: shipped.count,
    current: latest >= shipped.latest && row.applied >= shipped.count,
  }
}

// unreachable: PostgreSQL answers meanwhile
export type SearchState = { backend: 'postgres' } | { backend: 'meilisearch'; meilisearch: 'available' | 'unreachable' }

const MEILI_CHECK_TIMEOUT_MS = 1000
const MEILI_CHECK_EVERY_MS = 5000

/** Meilisearch's health, asked at most every few seconds so that a busy /readyz costs it nothing. */
export function searchStateProbe(config: Pick<Config, 'meili'>): () => Promise<SearchState> {
  const meili = config.meili
  if (!meili) return async () => ({ backend: 'postgres' })
  const client = meiliClient({ ...meili, timeoutMs: MEILI_CHECK_TIMEOUT_MS })
  let last: { at: number; state: Promise<SearchState> } | null = null
  return () => {
    const now = Date.now()
    if (!last || now - last.at >= MEILI_CHECK_EVERY_MS) {
      const state = client
        .health()
        .then(
          (h): SearchState => ({
            backend: 'meilisearch',
            meilisearch: h.status === 'available' ? 'available' : 'unreachable',
          }),
        )
        .catch((): SearchState => ({ backend: 'meilisearch', meilisearch: 'unreachable' }))
      last = { at: now, state }
    }
    return last.state
  }
}
