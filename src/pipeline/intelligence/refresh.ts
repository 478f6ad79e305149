/**
 * Recomputes contradictions and gaps from the whole corpus and replaces the stored ones in one
 * transaction, so readers see either the old snapshot or the new one, never a mix. It runs as the
 * `intelligence` job (scheduled every ten minutes, and on an operator's request), skipping the work
 * when no claim or paper arrived since the last run. The state row in job_state says when the
 * snapshot was computed and from what (the watermark), which the answers show as their freshness.
 */
import { sql } from 'drizzle-orm'
import type { Database, Db } from '../../db/client'
import { executeRows } from '../../db/client'
import { jobState } from '../../db/schema'
import { eq } from 'drizzle-orm'
import type { JobCounts } from '../../jobs/job-runs'
import { runJob } from '../../jobs/run-job'
import { computeContradictions } from './compute-contradictions'
import { computeGaps } from './compute-gaps'
import { buildFacts } from './facts'

export const INTELLIGENCE_JOB = 'intelligence'

/** What the corpus looked like: a new or re-extracted claim raises max_claim_id, a new paper the rest. */
export type Watermark = { max_claim_id: number; max_indexed_date: string | null }

export type IntelligenceState = {
  computed_at: string
  reference_date: string // the corpus' newest indexed_date when computed
  watermark: Watermark
  counts: Record<string, number>
  duration_ms: number
}

export async function readWatermark(db: Db): Promise<Watermark> {
  const [row] = await executeRows<{ max_claim_id: number | null; max_indexed_date: string | null }>(
    db,
    sql`
    select (select max(id) from claims) as max_claim_id, (select max(indexed_date)::text from papers) as
      max_indexed_date`,
  )
  return { max_claim_id: Number(row?.max_claim_id ?? 0), max_indexed_date: row?.max_indexed_date ?? null }
}

export async function readState(db: Db): Promise<IntelligenceState | null> {
  const [row] = await db.select({ state: jobState.state }).from(jobState).where(eq(jobState.name, INTELLIGENCE_JOB))
  return (row?.state as IntelligenceState | undefined) ?? null
}

export const sameWatermark = (a: Watermark, b: Watermark) =>
  a.max_claim_id === b.max_claim_id && a.max_indexed_date === b.max_indexed_date

export type RefreshOptions = { now?: Date; ifChanged?: boolean }

/** One computation, in a transaction; returns its counts (job_runs). */
export async function computeIntelligence(database: Database, options: RefreshOptions = {}): Promise<JobCounts> {
  const started = performance.now()
  const now = options.now ?? new Date()
  const watermark = await readWatermark(database.db)
  if (options.ifChanged) {
    const state = await readState(database.db)
    if (state && sameWatermark(state.watermark, watermark)) return { skipped: 1 }
  }
  const today = now.toISOString().slice(0, 10)
  const counts = await database.db.transaction(async (tx) => {
    if (database.driver === 'postgres') await tx.execute(sql`set local work_mem = '128MB'`)
    await buildFacts(tx, today)
    await computeContradictions(tx)
    await computeGaps(tx, watermark.max_indexed_date)
    const [row] = await executeRows<Record<string, number>>(
      tx,
      sql`select
      (select count(*)::int from intel_facts) as claims_read,
      (select count(*)::int from contradiction_groups) as contradiction_groups,
      (select count(*)::int from contradiction_pairs) as contradiction_pairs,
      (select count(*)::int from knowledge_gaps) as gaps`,
    )
    const result = { claims_read: 0, contradiction_groups: 0, contradiction_pairs: 0, gaps: 0, ...row }
    const state: IntelligenceState = {
      computed_at: now.toISOString(),
      reference_date: watermark.max_indexed_date ?? today,
      watermark,
      counts: result,
      duration_ms: Math.round(performance.now() - started),
    }
    await tx
      .insert(jobState)
      .values({ name: INTELLIGENCE_JOB, state, updatedAt: now })
      .onConflictDoUpdate({ target: jobState.name, set: { state, updatedAt: now } })
    return result
  })
  return { ...counts, duration_ms: Math.round(performance.now() - started) }
}

/** The job: exclusive across processes and recorded in job_runs (JobBusyError when one is running). */
export function refreshIntelligence(database: Database, options: RefreshOptions = {}): Promise<JobCounts> {
  return runJob(database, INTELLIGENCE_JOB, () => computeIntelligence(database, options))
}
