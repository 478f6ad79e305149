/** Every scheduled or CLI run of a job leaves a row: start, end, outcome and counts, for operators. */
import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { jobRuns } from '../db/schema'
import { errorText } from '../db/storable-text'
import { preparedStatement } from '../queries/prepared'
import { openControl, RunCancelledError, type RunControl } from './run-control'

export type JobCounts = Record<string, number>

/** A run's counts that are failures: `failed` and every `<what>_failed` (articles_failed, ...). */
const isFailureCount = (name: string) => name === 'failed' || name.endsWith('_failed')

/** How many things a run that did not throw failed at, by its counts. */
export function failureCount(counts: Record<string, unknown>): number {
  let failures = 0
  for (const [name, value] of Object.entries(counts)) {
    if (isFailureCount(name) && typeof value === 'number' && Number.isFinite(value) && value > 0) failures += value
  }
  return failures
}

/** The outcome and error line of a run that returned `counts`: ok, or partial with what failed. */
export function completedOutcome(counts: JobCounts): { outcome: 'ok' | 'partial'; error: string | null } {
  const failures = failureCount(counts)
  if (failures === 0) return { outcome: 'ok', error: null }
  const which = Object.entries(counts)
    .filter(([name, n]) => isFailureCount(name) && n > 0)
    .map(([name, n]) => `${name} ${n}`)
  const error = `the run went on past ${failures} failure${failures === 1 ? '' : 's'} (${which.join(', ')})`
  return { outcome: 'partial', error }
}

/** What a run that could not record its own end is closed with. */
export const ABANDONED_RUN =
  'the run ended without recording its outcome (its process died or lost the database); the work it had committed ' +
  'stays, the rest was retried by a later run'

/**
 * `onStart` learns the run's id before the work starts (the admin interface answers with it). The work is handed
 * the run's control (run-control.ts): it reports progress there and, if it is a job that can stop part-way, asks
 * it before each unit whether to stop. A run that stopped so is recorded as `cancelled`, with its counts.
 */
export async function recordRun(
  db: Db,
  job: string,
  work: (control: RunControl) => Promise<JobCounts>,
  onStart?: (runId: number) => void,
): Promise<JobCounts> {
  const [run] = await db.insert(jobRuns).values({ job }).returning({ id: jobRuns.id })
  const { control, release } = openControl(db, run.id)
  try {
    onStart?.(run.id)
    let counts: JobCounts
    try {
      counts = await work(control)
    } catch (error) {
      if (!(error instanceof RunCancelledError)) throw error
      counts = error.counts
    }
    await control.flush()
    const ended = control.stopped ? await cancelledOutcome(db, run.id) : completedOutcome(counts)
    await db
      .update(jobRuns)
      .set({ finishedAt: new Date(), ...ended, counts })
      .where(eq(jobRuns.id, run.id))
    return counts
  } catch (error) {
    await control.flush()
    await db
      .update(jobRuns)
      .set({ finishedAt: new Date(), outcome: 'failed', error: errorText(error, 2000) })
      .where(eq(jobRuns.id, run.id))
      .catch(() => {}) // the database may be why it failed
    throw error
  } finally {
    release()
  }
}

/** A run that stopped at a unit because it was asked to: who asked, and how far it got. */
async function cancelledOutcome(db: Db, runId: number): Promise<{ outcome: 'cancelled'; error: string }> {
  const [row] = await db
    .select({
      by: jobRuns.cancelRequestedBy,
      done: jobRuns.progressDone,
      total: jobRuns.progressTotal,
      unit: jobRuns.progressUnit,
    })
    .from(jobRuns)
    .where(eq(jobRuns.id, runId))
  const who = row?.by ? `by ${row.by}` : 'as the service stopped'
  const where =
    row?.total !== null && row?.total !== undefined ? ` after ${row.done} of ${row.total} ${row.unit ?? 'units'}` : ''
  return { outcome: 'cancelled', error: `cancelled ${who}${where}; the work done so far is kept` }
}

/**
 * Closes the rows of runs of `job` still marked running. Only safe while holding the job's lock
 * (job-lock.ts): then no other run of it is alive, so such a row belongs to a run killed (kill -9,
 * a crash) or cut off from the database before it could write its end.
 */
export async function closeAbandonedRuns(db: Db, job: string): Promise<number> {
  const closed = await db
    .update(jobRuns)
    .set({ finishedAt: new Date(), outcome: 'failed', error: ABANDONED_RUN })
    .where(and(eq(jobRuns.job, job), eq(jobRuns.outcome, 'running')))
    .returning({ id: jobRuns.id })
  return closed.length
}

/** How long finished runs are kept for operators (GET /api/jobs). */
export const JOB_RUN_RETENTION_DAYS = 30

/**
 * Deletes finished runs older than the retention, keeping the newest run of every job whatever its
 * age: `refresh` and `search-sync` alone leave a row a minute, which would otherwise grow by a
 * million rows a year.
 */
const purge = preparedStatement<{ n: number }>(
  `with deleted as (
    delete from job_runs r where r.finished_at < $?::timestamptz and r.id <> (select max(x.id) from job_runs x where ` +
    `x.job = r.job)
    returning 1)
  select count(*)::int as n from deleted`,
)

export async function purgeOldRuns(db: Db, now: Date, days = JOB_RUN_RETENTION_DAYS): Promise<number> {
  const [row] = await purge(db, [new Date(now.getTime() - days * 86_400_000).toISOString()])
  return row?.n ?? 0
}
