/**
 * Nothing is lost between the outbox, its drain and `cli search reindex`, also when they run at the
 * same time: a change is either in the index or still in the outbox.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { parseConfig } from '../../src/config'
import { openDatabase } from '../../src/db/client'
import { papers, searchOutbox } from '../../src/db/schema'
import { JobBusyError } from '../../src/jobs/job-lock'
import { runJob } from '../../src/jobs/run-job'
import { WORKER_JOBS } from '../../src/lifecycle/workers'
import { meiliClient } from '../../src/search/meilisearch/backend'
import { drainOutbox } from '../../src/search/meilisearch/sync'
import { enqueueSearchSync } from '../../src/search/outbox'
import { cliWithEnv } from '../support/cli'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'
import { startMeiliReplay, type MeiliReplay } from '../support/meili-replay'

let database: TestDatabase
let meili: MeiliReplay

beforeAll(async () => {
  database = await freshDatabase()
  await insertPapers(database.db, [
    paperRow({ id: 'MED-1', title: 'Rapamycin in mice' }),
    paperRow({ id: 'MED-2', title: 'Metformin in mice' }),
  ])
})
afterAll(() => database.close())
beforeEach(async () => {
  meili = startMeiliReplay()
  await database.db.delete(searchOutbox)
})
afterEach(() => meili.stop())

const env = () => ({ MEILI_HOST: meili.url, MEILI_INDEX: 'papers' })
const outboxIds = async () => (await database.db.select().from(searchOutbox)).map((r) => r.paperId)
const worker = WORKER_JOBS.find((j) => j.name === 'search-sync')!
/** One scheduled run of the search-sync worker job. */
const workerRun = () => runJob(database, worker.name, () => worker.run(database, parseConfig(env())))

/** A promise to hold something at, and its release. */
function latch() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { opened, open }
}

describe('cli search reindex and the search-sync worker exclude each other', () => {
  test('a rebuild is refused while the worker drains the outbox', async () => {
    const drain = latch()
    const running = runJob(database, worker.name, async () => {
      await drain.opened
      return {}
    })
    const result = await cliWithEnv(database, env(), 'search', 'reindex')
    expect(result).toMatchObject({
      code: 1,
      stderr: ['error: job search-sync is already running (in this or another process); try again when it ends'],
    })
    expect(meili.requests).toEqual([])
    drain.open()
    await running
  })

  // The lost update: a drain during the rebuild sent MED-2's change to the old index and deleted it
  // from the outbox; the swap then installed a rebuild that had read MED-2 before the change.
  test('the worker is refused during a rebuild, and a change made meanwhile waits for the swap', async () => {
    const atSwap = latch()
    const swap = latch()
    meili.gate = async (path) => {
      if (path !== '/swap-indexes') return
      atSwap.open()
      await swap.opened
    }
    const reindexing = cliWithEnv(database, env(), 'search', 'reindex')
    await atSwap.opened
    await database.db.update(papers).set({ title: 'Metformin in old mice' }).where(eq(papers.id, 'MED-2'))
    await enqueueSearchSync(database.db, ['MED-2'])
    await expect(workerRun()).rejects.toBeInstanceOf(JobBusyError)
    swap.open()
    expect((await reindexing).code).toBe(0)
    expect(await outboxIds()).toEqual(['MED-2'])
    meili.gate = null
    expect(await workerRun()).toEqual({ upserted: 1, deleted: 0 })
    expect(meili.documents.get('MED-2')).toMatchObject({ title: 'Metformin in old mice' })
  })
})

// Outbox ids are taken when a transaction inserts, not when it commits: a change can commit after
// the outbox was read with an id below the ones read. Only PostgreSQL runs two transactions at once.
describe.if(testDriver === 'postgres')('a change committed late, under a smaller id, is kept', () => {
  /** A transaction on another connection that queues MED-2 (taking the next id) and commits when told. */
  async function lateChange() {
    const other = await openDatabase({ kind: 'postgres', url: database.url!, max: 1 })
    const queued = latch()
    const commit = latch()
    const done = other.db
      .transaction(async (tx) => {
        await tx.update(papers).set({ title: 'Metformin in aged mice' }).where(eq(papers.id, 'MED-2'))
        await enqueueSearchSync(tx, ['MED-2'])
        queued.open()
        await commit.opened
      })
      .finally(() => other.close())
    await queued.opened
    return {
      commitNow: async () => {
        commit.open()
        await done
      },
    }
  }

  test('by the outbox drain', async () => {
    const late = await lateChange()
    await enqueueSearchSync(database.db, ['MED-1']) // a larger id, committed first
    meili.gate = async (path) => {
      if (path.endsWith('/documents')) await late.commitNow()
    } // commits while MED-1 is sent
    const client = meiliClient({ host: meili.url, apiKey: null, index: 'papers' })
    expect(await drainOutbox(database.db, client, 'papers')).toEqual({ upserted: 2, deleted: 0 })
    expect(meili.documents.get('MED-2')).toMatchObject({ title: 'Metformin in aged mice' })
    expect(await outboxIds()).toEqual([])
  })

  test('by a rebuild', async () => {
    await database.db.update(papers).set({ title: 'Metformin in mice' }).where(eq(papers.id, 'MED-2'))
    const late = await lateChange()
    await enqueueSearchSync(database.db, ['MED-1'])
    meili.gate = async (path) => {
      if (path === '/swap-indexes') await late.commitNow()
    } // after the rebuild read MED-2
    expect((await cliWithEnv(database, env(), 'search', 'reindex')).code).toBe(0)
    expect(meili.documents.get('MED-2')).toMatchObject({ title: 'Metformin in mice' })
    expect(await outboxIds()).toEqual(['MED-2'])
  })
})
