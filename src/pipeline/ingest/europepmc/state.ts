/**
 * Where a harvest stands, kept in job_state and written in the same transaction as each stored
 * page, so a run that stops anywhere (crash, timeout, malformed page) resumes at the first page
 * not yet stored: nothing is lost and nothing is stored twice.
 */
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { jobState } from '../../../db/schema'

export type HarvestWindow = { from: string; until: string; query: string }

export type HarvestState = {
  /** Last day of the newest finished incremental window; the next window starts on it again. */
  harvestedThrough: string | null
  /** A window under way: the cursor of its first page not yet stored. */
  pending: (HarvestWindow & { cursor: string; done: number }) | null
}

export const INCREMENTAL_STATE = 'europepmc-harvest'
export const BACKFILL_STATE = 'europepmc-backfill'

export async function readHarvestState(db: Db, name: string): Promise<HarvestState> {
  const [row] = await db.select({ state: jobState.state }).from(jobState).where(eq(jobState.name, name))
  const state = (row?.state ?? {}) as Partial<HarvestState>
  return { harvestedThrough: state.harvestedThrough ?? null, pending: state.pending ?? null }
}

export async function writeHarvestState(db: Db, name: string, state: HarvestState): Promise<void> {
  await db
    .insert(jobState)
    .values({ name, state })
    .onConflictDoUpdate({ target: jobState.name, set: { state, updatedAt: sql`now()` } })
}

export const sameWindow = (a: HarvestWindow, b: HarvestWindow) =>
  a.from === b.from && a.until === b.until && a.query === b.query
