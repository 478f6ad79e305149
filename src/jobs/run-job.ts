/** One run of a job, from the schedule or the CLI: exclusive (job-lock.ts) and recorded in job_runs. */
import { eq } from 'drizzle-orm'
import type { Database } from '../db/client'
import { jobRuns } from '../db/schema'
import { errorMessage, log } from '../log'
import { compactFacetCounts } from '../queries/facet-counts'
import { JobBusyError, withJobLock } from './job-lock'
import { closeAbandonedRuns, recordRun, type JobCounts } from './job-runs'

export async function runJob(database: Database, job: string, work: () => Promise<JobCounts>, onStart?: (runId: number) => void): Promise<JobCounts> {
  const counts = await withJobLock(database, job, async () => {
    await closeAbandonedRuns(database.db, job) // under the lock: any row still running is a dead run's
    return recordRun(database.db, job, work, onStart)
  })
  // A run's writes append count changes (drizzle/0019); folding them in here keeps them small also where only the
  // CLI writes (workers off). The counts are exact either way, so a failure here is only logged.
  await compactFacetCounts(database).catch((error) => log.warn({ job, error: errorMessage(error) }, 'cannot fold pending count changes'))
  return counts
}

/**
 * At start-up: closes as failed the rows still marked running of every job whose lock no one
 * holds, so a run killed by kill -9 does not show "running" until the job's next
 * run. A job another instance is running now keeps its row. Returns how many were closed.
 */
export async function closeStaleRuns(database: Database): Promise<number> {
  const running = await database.db.selectDistinct({ job: jobRuns.job }).from(jobRuns).where(eq(jobRuns.outcome, 'running'))
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
