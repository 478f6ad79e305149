import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { JOB_RUN_RETENTION_DAYS, purgeOldRuns } from '../../src/jobs/job-runs'
import { WORKER_JOBS } from '../../src/lifecycle/workers'
import { freshDatabase, type TestDatabase } from '../support/database'

let database: TestDatabase
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(async () => {
  await database.close()
})

const NOW = new Date('2026-11-24T12:00:00Z')
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString()

async function run(job: string, startedDaysAgo: number, outcome: 'ok' | 'failed' | 'running' = 'ok') {
  const finished = outcome === 'running' ? null : daysAgo(startedDaysAgo - 0.001)
  await database.db.execute(sql`insert into job_runs (job, started_at, finished_at, outcome)
    values (${job}, ${daysAgo(startedDaysAgo)}::timestamptz, ${finished}::timestamptz, ${outcome})`)
}

describe('purging old job runs', () => {
  test(`deletes finished runs older than ${JOB_RUN_RETENTION_DAYS} days and keeps the newest run of every job`, async () => {
    await run('refresh', 40)
    await run('refresh', 35, 'failed')
    await run('refresh', 1)
    await run('harvest', 90) // the only run of its job: kept, however old
    await run('export', 45)
    await run('export', 31, 'running') // never finished (its end is recorded when the job's lock is next taken): kept
    expect(await purgeOldRuns(database.db, NOW)).toBe(3)
    const left = await database.rows<{ job: string; outcome: string }>(
      sql`select job, outcome from job_runs order by id`,
    )
    expect(left).toEqual([
      { job: 'refresh', outcome: 'ok' },
      { job: 'harvest', outcome: 'ok' },
      { job: 'export', outcome: 'running' },
    ])
    expect(await purgeOldRuns(database.db, NOW)).toBe(0)
  })

  test('runs daily with the workers', () => {
    expect(WORKER_JOBS.find((j) => j.name === 'purge-job-runs')?.cron).toMatch(/^\d+ \d+ \* \* \*$/)
  })
})
