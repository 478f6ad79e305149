/** Every scheduled or CLI run of a job leaves a row: start, end, outcome and counts, for operators. */
import { eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { jobRuns } from '../db/schema'
import { errorText } from '../db/storable-text'

export type JobCounts = Record<string, number>

/** `onStart` learns the run's id before the work starts (the admin interface answers with it). */
export async function recordRun(db: Db, job: string, work: () => Promise<JobCounts>, onStart?: (runId: number) => void): Promise<JobCounts> {
  const [run] = await db.insert(jobRuns).values({ job }).returning({ id: jobRuns.id })
  onStart?.(run.id)
  try {
    const counts = await work()
    await db.update(jobRuns).set({ finishedAt: new Date(), outcome: 'ok', counts }).where(eq(jobRuns.id, run.id))
    return counts
  } catch (error) {
    await db.update(jobRuns).set({ finishedAt: new Date(), outcome: 'failed', error: errorText(error, 2000) })
      .where(eq(jobRuns.id, run.id)).catch(() => {}) // the database may be why it failed
    throw error
  }
}
