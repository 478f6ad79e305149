/**
 * The background jobs the service runs when WORKERS is on, each on its own schedule. Every run goes
 * through `recordRun`, so operators see a row per run; a failing run is logged by the scheduler
 * and the job simply waits for its next time.
 */
import type { Config } from '../config'
import type { Database } from '../db/client'
import { purgeExpiredCounters } from '../modules/v1/rate-limit/postgres-store'
import { recordRun, type JobCounts } from './job-runs'
import { refreshEntityCounts } from './refresh-entity-counts'
import { createAnalyzer } from '../analysis/create-analyzer'
import { runAnalysis } from '../analysis/pipeline'
import { schedule, type ScheduledJob } from './scheduler'

export type WorkerJob = {
  name: string
  cron: string // five fields, UTC
  run: (database: Database, config: Config) => Promise<JobCounts>
}

export const WORKER_JOBS: WorkerJob[] = [
  { name: 'refresh', cron: '* * * * *', run: (database) => refreshEntityCounts(database.db) },
  {
    name: 'purge-rate-limits',
    cron: '7 * * * *',
    run: async (database) => ({ deleted: await purgeExpiredCounters(database, new Date()) }),
  },
  {
    // Bounded so one run ends well before the next is due, even with a slow model.
    name: 'analyze',
    cron: '*/5 * * * *',
    run: (database, config) => runAnalysis(database.db, createAnalyzer(database.db, config), { limit: config.llm ? 200 : 5000 }),
  },
]

export function startWorkers(database: Database, config: Config): ScheduledJob[] {
  return WORKER_JOBS.map((job) =>
    schedule(job.name, job.cron, () => recordRun(database.db, job.name, () => job.run(database, config))))
}
