/**
 * The two loops every kind of stored document shares (./papers.ts, ./claims.ts): refreshing stale ones a batch at a
 * time, and rebuilding all of them in id order, resumably, with the position kept in job_state.
 */
import { eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { jobState } from '../db/schema'

export type RefreshOptions = { batch?: number; maxMs?: number; max?: number; stopped?: () => boolean }
export type RefreshCounts = { written: number; batches: number }

/**
 * Reads up to `batch` stale rows with `staleRows(n)` and stores them with `store` (which returns how many it wrote),
 * until none is left, `maxMs` has passed, `max` were read or `stopped()` says so (checked between batches).
 */
export async function refreshInBatches<R>(
  staleRows: (limit: number) => Promise<R[]>,
  store: (rows: R[]) => Promise<number>,
  options: RefreshOptions,
  defaultBatch: number,
): Promise<RefreshCounts> {
  const {
    batch = defaultBatch,
    maxMs = Number.POSITIVE_INFINITY,
    max = Number.POSITIVE_INFINITY,
    stopped = () => false,
  } = options
  const until = performance.now() + maxMs
  const counts: RefreshCounts = { written: 0, batches: 0 }
  let read = 0
  while (read < max && performance.now() < until && !stopped()) {
    const rows = await staleRows(Math.min(batch, max - read))
    if (rows.length === 0) break
    read += rows.length
    counts.batches++
    const written = await store(rows)
    counts.written += written
    // Nothing written: every row read changed again meanwhile; the next call takes them.
    if (written === 0) break
  }
  return counts
}

export type Rebuild<K extends string | number, R> = {
  /** The job_state row that keeps the last id done. */
  job: string
  /** Where a run with no saved position starts: before every id. */
  start: K
  /** How many there are, and how many at or before `after`. */
  count: (after: K) => Promise<{ total: number; done: number }>
  rowsAfter: (after: K, batch: number) => Promise<R[]>
  idOf: (row: R) => K
  store: (rows: R[]) => Promise<number>
  /** Whatever went stale meanwhile, written at the end. */
  refresh: () => Promise<RefreshCounts>
}

/**
 * Rewrites every document in id order, `batch` at a time, resumable: the last id done is kept in job_state after
 * each batch, and a run that finds it starts after it. Ends by refreshing what went stale meanwhile and forgetting
 * the position. `onProgress(done, total)` after each batch.
 */
export async function rebuildInBatches<K extends string | number, R>(
  db: Db,
  kind: Rebuild<K, R>,
  options: { batch: number; onProgress?: (done: number, total: number) => void },
): Promise<{ written: number; resumedAfter: K | null }> {
  const [saved] = await db.select({ state: jobState.state }).from(jobState).where(eq(jobState.name, kind.job))
  const resumedAfter = typeof saved?.state.after === typeof kind.start ? (saved!.state.after as K) : null
  let after = resumedAfter ?? kind.start
  const { total, done: before } = await kind.count(after)
  let done = before
  let written = 0
  for (;;) {
    const rows = await kind.rowsAfter(after, options.batch)
    if (rows.length === 0) break
    written += await kind.store(rows)
    after = kind.idOf(rows[rows.length - 1])
    done += rows.length
    await db
      .insert(jobState)
      .values({ name: kind.job, state: { after } })
      .onConflictDoUpdate({ target: jobState.name, set: { state: { after }, updatedAt: new Date() } })
    options.onProgress?.(done, total)
  }
  written += (await kind.refresh()).written
  await db.delete(jobState).where(eq(jobState.name, kind.job))
  return { written, resumedAfter }
}
