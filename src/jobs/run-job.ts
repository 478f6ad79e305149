/** One run of a job, from the schedule or the CLI: exclusive (job-lock.ts) and recorded in job_runs. */
import { eq } from 'drizzle-orm'
import type { Database, Db } from '../db/client'
import { jobRuns } from '../db/schema'
import { errorMessage, log } from '../log'
import { compactFacetCounts } from '../queries/facet-counts'
import { JobBusyError, withJobLock } from './job-lock'
import { closeAbandonedRuns, recordRun, type JobCounts } from './job-runs'
import { cancelInProcess, type RunControl } from './run-control'

export async function runJob(
  database: Database,
  job: string,
  work: (control: RunControl) => Promise<JobCounts>,
  onStart?: (runId: number) => void,
): Promise<JobCounts> {
  const counts = await withJobLock(database, job, async () => {
    await closeAbandonedRuns(database.db, job) // under the lock: any row still running is a dead run's
    return recordRun(database.db, job, work, onStart)
  })
  // A run's writes append count changes (drizzle/0019); folding them in here keeps them small also where only the
  // CLI writes (workers off). The counts are exact either way, so a failure here is only logged.
  await compactFacetCounts(database).catch((error) =>
    log.warn({ job, error: errorMessage(error) }, 'cannot fold pending count changes'),
  )
  return counts
}

/**
 * At start-up: closes as failed the rows still marked running of every job whose lock no one
 * holds, so a run killed by kill -9 does not show "running" until the job's next
 * run. A job another instance is running now keeps its row. Returns how many were closed.
 */
export async function closeStaleRuns(database: Database): Promise<number> {
  const running = await database.db
    .selectDistinct({ job: jobRuns.job })
    .from(jobRuns)
    .where(eq(jobRuns.outcome, 'running'))
  let closed = 0
  for (const { job } of running) {
    try {
      closed += await withJobLock(database, job, () => closeAbandonedRuns(database.db, job))
    } catch (error) {
      if (!(error instanceof JobBusyError)) throw error
    }
  }
  return closed
}

/** Runs started by `startJob` that have not ended, per database: the graceful shutdown stops and waits for them. */
const detached = new WeakMap<Db, Map<number, Promise<unknown>>>()

export type StartedRun<T extends JobCounts> = { runId: number; ended: Promise<T> }

/**
 * Starts a run as `runJob` does and answers as soon as it has its job_runs row (its id), leaving it
 * to go on in the background; a run of the same job already going rejects with JobBusyError, as
 * `runJob` does. The run's end (or failure) is recorded in job_runs (and logged); `ended` settles with it.
 */
export function startJob<T extends JobCounts>(
  database: Database,
  job: string,
  work: (control: RunControl) => Promise<T>,
): Promise<StartedRun<T>> {
  let runs = detached.get(database.db)
  if (!runs) detached.set(database.db, (runs = new Map()))
  const table = runs
  return new Promise((resolve, reject) => {
    let runId = 0
    const ended = runJob(database, job, work, (id) => {
      runId = id
      table.set(
        id,
        ended.catch(() => {}),
      )
      resolve({ runId: id, ended })
    }) as Promise<T>
    ended.then(
      () => {
        table.delete(runId)
      },
      (error) => {
        table.delete(runId)
        if (runId === 0)
          reject(error) // it never started: busy, or the database refused the row
        else log.error({ job, runId, error: errorMessage(error) }, 'job failed')
      },
    )
  })
}

/**
 * The graceful shutdown's part: runs started by `startJob` in this process stop at their next unit
 * (recorded as cancelled; jobs that cannot stop part-way run on) and are waited for.
 */
export async function stopStartedRuns(database: Database): Promise<number> {
  const runs = detached.get(database.db)
  if (!runs || runs.size === 0) return 0
  for (const runId of runs.keys()) cancelInProcess(database.db, runId)
  const count = runs.size
  await Promise.all(runs.values())
  return count
}
