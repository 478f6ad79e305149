/**
 * The background jobs the service runs when WORKERS is on, each on its own schedule. Every run goes
 * through `runJob`: runs of one job never overlap (also not with a CLI run in another process) and
 * each leaves a job_runs row; a failing run is logged by the scheduler and the job simply waits for
 * its next time. It wires the jobs to the features, so it stands with the start-up code above them;
 * the runner, lock and schedule it uses stay below the features in src/jobs/.
 */
import type { Config } from '../config'
import type { Database } from '../db/client'
import { SEARCH_SYNC_JOB, syncSearchIndex } from '../search'
import { harvestEuropePmc } from '../pipeline/ingest/europepmc/harvest'
import { scrapeFeeds } from '../pipeline/ingest/rss/scrape'
import { purgeExpiredCounters } from '../rate-limit/postgres-store'
import { purgeOldRuns, type JobCounts } from '../jobs/job-runs'
import { refreshEntityCounts } from '../jobs/refresh-entity-counts'
import { purgeEndedSessions, sessionPolicy } from '../accounts/sessions'
import { purgeLoginFailures } from '../accounts/login-budget'
import { createAnalyzer } from '../pipeline/analysis/create-analyzer'
import { runAnalysis } from '../pipeline/analysis/pipeline'
import { runJob } from '../jobs/run-job'
import type { RunControl } from '../jobs/run-control'
import { computeIntelligence, INTELLIGENCE_JOB } from '../pipeline/intelligence/refresh'
import { schedule, type ScheduledJob } from '../jobs/scheduler'
import { EXPORT_CRON, EXPORT_JOB, runExport } from '../pipeline/exports/run-export'
import { purgeTombstones } from '../resources/changes/queries'

export type WorkerJob = {
  name: string
  cron: string // five fields, UTC
  /** `control`: the run's progress and cancel (src/jobs/run-control.ts), used by the jobs that can stop part-way. */
  run: (database: Database, config: Config, control?: RunControl) => Promise<JobCounts>
}

export const WORKER_JOBS: WorkerJob[] = [
  // Every minute; like every job run, it ends by folding in pending count changes (run-job.ts).
  { name: 'refresh', cron: '* * * * *', run: (database) => refreshEntityCounts(database.db) },
  {
    name: 'purge-rate-limits',
    cron: '7 * * * *',
    run: async (database) => ({ deleted: await purgeExpiredCounters(database, new Date()) }),
  },
  {
    name: 'purge-sessions',
    cron: '37 * * * *',
    run: async (database, config) => ({
      deleted: await purgeEndedSessions(database.db, new Date(), sessionPolicy(config.sessions)),
    }),
  },
  {
    name: 'purge-login-failures',
    cron: '41 * * * *',
    run: async (database) => ({ deleted: await purgeLoginFailures(database.db, new Date()) }),
  },
  { name: SEARCH_SYNC_JOB, cron: '* * * * *', run: (database, config) => syncSearchIndex(database.db, config) },
  { name: 'harvest', cron: '17 * * * *', run: (database, config) => harvestEuropePmc(database, config) },
  {
    name: 'scrape',
    cron: '*/30 * * * *',
    run: (database, config, control) => scrapeFeeds(database, config, { control }),
  },
  {
    // Bounded so one run ends well before the next is due, even with a slow model.
    name: 'analyze',
    cron: '*/5 * * * *',
    run: (database, config, control) =>
      runAnalysis(database.db, createAnalyzer(database.db, config), { limit: config.llm ? 200 : 5000, control }),
  },
  // Contradictions and gaps for /api/intelligence; skipped when no claim or paper arrived since the last run.
  {
    name: INTELLIGENCE_JOB,
    cron: '3-59/10 * * * *',
    run: (database) => computeIntelligence(database, { ifChanged: true }),
  },
  // The bulk export for /api/v1/exports (src/pipeline/exports), nightly.
  { name: EXPORT_JOB, cron: EXPORT_CRON, run: (database, config, control) => runExport(database, config, { control }) },
  // Change-feed tombstones older than TOMBSTONE_RETENTION_DAYS (src/resources/changes/queries.ts); cursors expire a day
  // before.
  {
    name: 'purge-tombstones',
    cron: '47 3 * * *',
    run: async (database) => ({ deleted: await purgeTombstones(database.db) }),
  },
  // Finished job runs older than JOB_RUN_RETENTION_DAYS, the newest of each job kept (src/jobs/job-runs.ts).
  {
    name: 'purge-job-runs',
    cron: '53 3 * * *',
    run: async (database) => ({ deleted: await purgeOldRuns(database.db, new Date()) }),
  },
]

export function startWorkers(database: Database, config: Config): ScheduledJob[] {
  return WORKER_JOBS.map((job) =>
    schedule(job.name, job.cron, () => runJob(database, job.name, (control) => job.run(database, config, control))),
  )
}
