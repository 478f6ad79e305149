/** The intelligence job: scheduled with the other workers, recorded in job_runs, skipped when nothing changed. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { desc, eq } from 'drizzle-orm'
import { jobRuns } from '../../src/db/schema'
import { INTELLIGENCE_JOB, readState } from '../../src/pipeline/intelligence/refresh'
import { WORKER_JOBS } from '../../src/lifecycle/workers'
import { runJob } from '../../src/jobs/run-job'
import { parseConfig } from '../../src/config'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { insertClaim } from '../support/fixtures'
import { seedKnowledge } from './fixtures'

let database: TestDatabase
let seeded: Awaited<ReturnType<typeof seedKnowledge>>
beforeAll(async () => {
  database = await freshDatabase()
  seeded = await seedKnowledge(database.db)
})
afterAll(() => database.close())

const job = WORKER_JOBS.find((j) => j.name === INTELLIGENCE_JOB)!
const run = () => runJob(database, job.name, () => job.run(database, parseConfig({})))

test(`runs every ten minutes, recomputing only when claims or papers changed (${testDriver})`, async () => {
  expect(job.cron).toBe('3-59/10 * * * *')
  const first = await run()
  expect(first).toMatchObject({ contradiction_groups: 3 })
  const computedAt = (await readState(database.db))!.computed_at
  expect(await run()).toEqual({ skipped: 1 })
  expect((await readState(database.db))!.computed_at).toBe(computedAt)
  await insertClaim(database.db, {
    paperId: 'MED-112',
    subjectText: 'rapamycin',
    subjectEntityId: seeded.entities.rapamycin.id,
    relation: 'increases',
    objectText: 'IL-6',
    objectEntityId: seeded.entities.il6.id,
    organism: 'Mus musculus',
    direction: 'increase',
    context: null,
  })
  expect(await run()).toMatchObject({ claims_read: first.claims_read! + 1 })
  const runs = await database.db
    .select()
    .from(jobRuns)
    .where(eq(jobRuns.job, INTELLIGENCE_JOB))
    .orderBy(desc(jobRuns.id))
  expect(runs.map((r) => r.outcome)).toEqual(['ok', 'ok', 'ok'])
})
