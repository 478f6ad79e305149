import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { parseConfig } from '../../src/config'
import { jobRuns, papers } from '../../src/db/schema'
import { runJob } from '../../src/jobs/run-job'
import { WORKER_JOBS } from '../../src/lifecycle/workers'
import { cli } from '../support/cli'
import { freshDatabase, type TestDatabase } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'

let database: TestDatabase
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(async () => {
  await database.close()
})

const unjudged = (id: string) =>
  paperRow({
    id,
    judgedAt: null,
    extractedAt: null,
    relevance: null,
    judgementModel: null,
    judgementPromptVersion: null,
  })

describe('cli analyze', () => {
  test('analyses what is waiting, reports progress and leaves a job run', async () => {
    await insertPapers(database.db, [unjudged('MED-1'), unjudged('MED-2')])
    const result = await cli(database, 'analyze')
    expect(result.code).toBe(0)
    expect(result.stdout.join('\n')).toMatch(/^analysed with geroscope-builtin-1: 2 papers \(0 failed, \d+ stories/)
    expect(result.stderr.some((l) => /^2 \/ 2 papers and articles/.test(l))).toBe(true)
    const [run] = await database.db.select().from(jobRuns).where(eq(jobRuns.job, 'analyze'))
    expect(run).toMatchObject({ outcome: 'ok', counts: { papers: 2, failed: 0 } })
    const [{ n }] = await database.rows<{ n: number }>(
      sql`select count(*)::int as n from papers where judged_at is null`,
    )
    expect(n).toBe(0)
  })

  test('says when nothing was waiting, and honours --limit', async () => {
    expect((await cli(database, 'analyze')).stdout.join('\n')).toContain('nothing was waiting')
    await insertPapers(database.db, [unjudged('MED-3'), unjudged('MED-4')])
    expect((await cli(database, 'analyze', '--limit', '1')).stdout.join('\n')).toContain(': 1 papers')
  })

  // POST /api/analyze and the schedule run the job 'analyze' through runJob; the command must wait its turn too.
  test.each(['analyze', 'scrape'])(
    "%s while a run of the same job goes on: the lock's message, exit status 1, no second run",
    async (job) => {
      let release!: () => void
      let started!: () => void
      const held = new Promise<void>((resolve) => {
        release = resolve
      })
      const begun = new Promise<void>((resolve) => {
        started = resolve
      })
      const running = runJob(
        database,
        job,
        async () => {
          await held
          return {}
        },
        () => started(),
      )
      await begun
      const runsBefore = (await database.db.select().from(jobRuns).where(eq(jobRuns.job, job))).length
      const result = await cli(database, job)
      release()
      await running
      expect(result.code).toBe(1)
      expect(result.stderr).toEqual([
        `error: job ${job} is already running (in this or another process); try again when it ends`,
      ])
      expect((await database.db.select().from(jobRuns).where(eq(jobRuns.job, job))).length).toBe(runsBefore)
    },
  )

  test('rejects a bad limit with a usage error', async () => {
    const result = await cli(database, 'analyze', '--limit', 'many')
    expect(result.code).toBe(2)
    expect(result.stderr[0]).toContain('--limit')
  })
})

describe('the analyze worker', () => {
  test('runs every five minutes and analyses pending papers', async () => {
    const job = WORKER_JOBS.find((j) => j.name === 'analyze')!
    expect(job.cron).toBe('*/5 * * * *')
    await insertPapers(database.db, [unjudged('MED-5')])
    expect(await job.run(database, parseConfig({}))).toMatchObject({ papers: 2, failed: 0 }) // MED-4 was left by --limit 1
    const [paper] = await database.db.select().from(papers).where(eq(papers.id, 'MED-5'))
    expect(paper.judgementModel).toBe('geroscope-builtin-1')
  })
})
