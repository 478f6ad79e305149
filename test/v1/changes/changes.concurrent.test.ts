/**
 * Two real concurrent transactions: a change whose transaction commits after a later one's must
 * still reach a mirror that polled in between. On PostgreSQL with two connections of their own;
 * PGlite has one connection, so there the same code meets only transactions one after another.
 */
import { describe, expect, test } from 'bun:test'
import postgres from 'postgres'
import { req, useTestApp } from '../../support/app'
import { testDriver } from '../../support/database'
import { bearer, insertPapers, paperRow } from '../../support/fixtures'

const api = useTestApp()

const feed = async (cursor: string | null) => {
  const base = '/api/v1/papers?updated_since=2000-01-01&min_relevance=0&limit=100'
  const response = await api.app.handle(
    req(cursor ? `${base}&cursor=${encodeURIComponent(cursor)}` : base, bearer(api.key)),
  )
  expect(response.status).toBe(200)
  const body = (await response.json()) as {
    data: { id: string; title: string }[]
    pagination: { resume_cursor: string; has_more: boolean }
  }
  return { titles: body.data.map((p) => `${p.id}:${p.title}`), resume: body.pagination.resume_cursor }
}

if (testDriver !== 'postgres')
  console.error(
    'changes.concurrent: the two-connection cases run on PostgreSQL only (DATABASE_URL); here, one after another',
  )

describe('the feed under concurrent writers', () => {
  test.skipIf(testDriver !== 'postgres')(
    'a change committed after a later one is not skipped by a mirror that polled in between',
    async () => {
      await insertPapers(api.database.db, [
        paperRow({ id: 'MED-1001' }),
        paperRow({ id: 'MED-1002' }),
        paperRow({ id: 'MED-1003' }),
      ])
      let { resume } = await feed(null)
      const one = postgres(api.database.url!, { max: 1, onnotice: () => {} })
      const two = postgres(api.database.url!, { max: 1, onnotice: () => {} })
      const releases: (() => void)[] = [] // a failed expectation must not leave a transaction waiting forever
      try {
        // T1 writes first (so its change gets the lower sequence number and the older transaction id) and commits last.
        let releaseOne!: () => void
        const oneMayCommit = new Promise<void>((resolve) => {
          releaseOne = resolve
          releases.push(resolve)
        })
        let oneWrote!: () => void
        const oneHasWritten = new Promise<void>((resolve) => {
          oneWrote = resolve
        })
        const first = one.begin(async (tx) => {
          await tx`update papers set title = 'late commit' where id = 'MED-1001'`
          oneWrote()
          await oneMayCommit
        })
        await oneHasWritten
        await two.begin(async (tx) => {
          await tx`update papers set title = 'early commit' where id = 'MED-1002'`
        })

        // T2 has committed, T1 is open: a reader by sequence or by timestamp would hand out MED-1002 and move past
        // MED-1001's position. The feed holds back everything from T1's transaction on.
        const between = await feed(resume)
        expect(between.titles).toEqual([])
        resume = between.resume

        releaseOne()
        await first
        const after = await feed(resume)
        expect(after.titles).toEqual(['MED-1001:late commit', 'MED-1002:early commit'])

        // A transaction that took its id first but writes last lands after everything handed out meanwhile.
        let releaseThree!: () => void
        const threeMayWrite = new Promise<void>((resolve) => {
          releaseThree = resolve
          releases.push(resolve)
        })
        let threeStarted!: () => void
        const threeHasId = new Promise<void>((resolve) => {
          threeStarted = resolve
        })
        const third = one.begin(async (tx) => {
          await tx`select pg_current_xact_id()`
          threeStarted()
          await threeMayWrite
          await tx`update papers set title = 'written last' where id = 'MED-1003'`
        })
        await threeHasId
        await two.begin(async (tx) => {
          await tx`update papers set title = 'meanwhile' where id = 'MED-1002'`
        })
        const held = await feed(after.resume)
        expect(held.titles).toEqual([]) // MED-1002's new change waits behind the open, older transaction
        releaseThree()
        await third
        const last = await feed(held.resume)
        expect(last.titles).toEqual(['MED-1003:written last', 'MED-1002:meanwhile'])
        expect((await feed(last.resume)).titles).toEqual([])
      } finally {
        for (const release of releases) release()
        await one.end()
        await two.end()
      }
    },
  )

  test('transactions one after another (the only kind PGlite has) are each handed out once, in commit order', async () => {
    await insertPapers(api.database.db, [paperRow({ id: 'MED-1101' }), paperRow({ id: 'MED-1102' })])
    const start = await feed(null)
    await api.database.db.transaction(async (tx) => {
      await tx.execute(`update papers set title = 'second' where id = 'MED-1102'` as never)
    })
    await api.database.db.transaction(async (tx) => {
      await tx.execute(`update papers set title = 'third' where id = 'MED-1101'` as never)
    })
    const next = await feed(start.resume)
    expect(next.titles).toEqual(['MED-1102:second', 'MED-1101:third'])
  })
})
