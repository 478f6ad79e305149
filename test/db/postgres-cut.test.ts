/**
 * postgres.js (3.4.9, patches/postgres+3.4.9.patch) when the server ends a connection under it.
 * Unpatched, each of these left a pooled connection broken for good or a query unsettled: the
 * service's requests on that connection then waited for connect_timeout, or for ever.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import postgres from 'postgres'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'

const onPostgres = testDriver === 'postgres'
if (!onPostgres) console.log('connection-cut tests left out: they need PostgreSQL (run with DATABASE_URL; CI does)')

/** A query's outcome: 'answered', its error code, or 'waiting' if it has not settled in 10 s. */
const outcome = (query: Promise<unknown>) =>
  Promise.race([
    query.then(
      () => 'answered',
      (error: { code?: string }) => error.code ?? String(error),
    ),
    Bun.sleep(10_000).then(() => 'waiting'),
  ])

describe.skipIf(!onPostgres)('a postgres.js connection the server cuts', () => {
  let database: TestDatabase
  let admin: postgres.Sql

  beforeAll(async () => {
    database = await freshDatabase()
    admin = postgres(database.url!, { max: 1, onnotice: () => {} })
  })

  afterAll(async () => {
    await admin?.end()
    await database?.close()
  })

  // connect_timeout 30 s, longer than `outcome` waits: a connection that cannot connect again shows as 'waiting'.
  const client = (options: postgres.Options<{}> = {}) =>
    postgres(database.url!, { max: 1, connect_timeout: 30, backoff: () => 0.05, onnotice: () => {}, ...options })

  test('while a query waits to be written: that query is rejected and the next one connects again at once', async () => {
    // The query is written from onnotice, while the server's goodbye and the close are already on
    // their way: its bytes wait for the next turn of the event loop, which the close comes before.
    // The cancelled write stayed scheduled and its bytes kept: the next startup message never left.
    for (let round = 0; round < 5; round++) {
      let written: Promise<string> | null = null
      const sql: postgres.Sql = client({
        onnotice: () => {
          written ??= outcome(sql`select 1`)
        },
      })
      await sql`select 1`
      const cut = await outcome(
        sql.unsafe(`do $$ begin raise notice 'going'; perform pg_terminate_backend(pg_backend_pid()); end $$`),
      )
      expect(['ECONNRESET', 'CONNECTION_CLOSED', '57P01']).toContain(cut)
      expect(['ECONNRESET', 'CONNECTION_CLOSED']).toContain(await written!)
      // Asked for once the cut query is rejected, before the close arrives when the server reset the
      // connection: rejected then (it was lost with the connection, unsettled, unpatched).
      expect(['answered', 'CONNECTION_CLOSED']).toContain(await outcome(sql`select 1`))
      expect(await outcome(sql`select 1`)).toBe('answered')
      await sql.end({ timeout: 0 })
    }
  }, 120_000)

  test("from outside, between queries: the next query is answered, not failed with the old session's 57P01", async () => {
    for (let round = 0; round < 3; round++) {
      const sql = client()
      const [{ pid }] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`
      await admin`select pg_terminate_backend(${pid})`
      Bun.sleepSync(100) // the server's 57P01 and its close are in the socket before the next query is written
      // Written to the closing socket, or (if the close is read first) on a new connection.
      expect(['CONNECTION_CLOSED', 'ECONNRESET', 'answered']).toContain(await outcome(sql`select 1`))
      expect(await outcome(sql`select 1`)).toBe('answered')
      await sql.end({ timeout: 0 })
    }
  })
})
