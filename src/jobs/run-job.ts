/** One run of a job, from the schedule or the CLI: exclusive (job-lock.ts) and recorded in job_runs. */
import type { Database } from '../db/client'
import { withJobLock } from './job-lock'
import { closeAbandonedRuns, recordRun, type JobCounts } from './job-runs'

export function runJob(database: Database, job: string, work: () => Promise<JobCounts>, onStart?: (runId: number) => void): Promise<JobCounts> {
  return withJobLock(database, job, async () => {
    await closeAbandonedRuns(database.db, job) // under the lock: any row still running is a dead run's
    return recordRun(database.db, job, work, onStart)
  })
}
