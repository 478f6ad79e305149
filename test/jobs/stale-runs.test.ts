/**
 * Runs left "running" by a process that died (kill -9) are closed at start-up, not at the job's next
 * run; a run another instance holds the lock of is left alone.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { jobRuns } from '../../src/db/schema'
import { withJobLock } from '../../src/jobs/job-lock'
import { ABANDONED_RUN } from '../../src/jobs/job-runs'
import { closeStaleRuns } from '../../src/jobs/run-job'
import { freshDatabase, type TestDatabase } from '../support/database'

let database: TestDatabase
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(async () => {
  await database.close()
})

test('start-up closes dead runs as failed and leaves a run whose lock is held', async () => {
  const [dead] = await database.db.insert(jobRuns).values({ job: 'analyze' }).returning({ id: jobRuns.id })
  const [alsoDead] = await database.db.insert(jobRuns).values({ job: 'harvest' }).returning({ id: jobRuns.id })
  const [alive] = await database.db.insert(jobRuns).values({ job: 'scrape' }).returning({ id: jobRuns.id })
  const [done] = await database.db
    .insert(jobRuns)
    .values({ job: 'refresh', outcome: 'ok', finishedAt: new Date() })
    .returning({ id: jobRuns.id })
  let release!: () => void
  let locked!: () => void
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve
  })
  const holding = withJobLock(
    database,
    'scrape',
    () =>
      new Promise<void>((resolve) => {
        release = resolve
        locked()
      }),
  )
  await isLocked
  try {
    expect(await closeStaleRuns(database)).toBe(2)
  } finally {
    release()
    await holding
  }
  const outcome = async (id: number) => (await database.db.select().from(jobRuns).where(eq(jobRuns.id, id)))[0]!
  for (const id of [dead!.id, alsoDead!.id]) {
    const row = await outcome(id)
    expect(row).toMatchObject({ outcome: 'failed', error: ABANDONED_RUN })
    expect(row.finishedAt).toBeInstanceOf(Date)
  }
  expect((await outcome(alive!.id)).outcome).toBe('running')
  expect((await outcome(done!.id)).outcome).toBe('ok')
})
