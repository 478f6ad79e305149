/** One run of a job, from the schedule or the CLI: exclusive (job-lock.ts) and recorded in job_runs. */
import type { Database } from '../db/client'
import { errorMessage, log } from '../log'
import { compactFacetCounts } from '../queries/facet-counts'
import { withJobLock } from './job-lock'
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
