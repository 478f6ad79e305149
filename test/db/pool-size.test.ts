/**
 * DATABASE_POOL_SIZE bounds each of an instance's pools to the primary: postgres.js's (the query
 * builder, jobs) and, under Bun, the native client's (the prepared statements of the hot reads).
 * On 2 shared cores a smaller pool served light reads faster (docs/benchmarks.md); the setting lets
 * an operator size it to the database's cores.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { parseConfig } from '../../src/config'
import type { Database } from '../../src/db/client'
import { openConfiguredDatabase } from '../../src/lifecycle/open-database'
import { preparedStatement } from '../../src/queries/prepared'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'

const onPostgres = testDriver === 'postgres'
if (!onPostgres) console.log('pool-size tests left out: they need PostgreSQL (run with DATABASE_URL; CI does)')

const slowPid = preparedStatement<{ pid: number }>('select pg_backend_pid() as pid, pg_sleep($?::float8) as slept')

describe.skipIf(!onPostgres)('DATABASE_POOL_SIZE', () => {
  let scratch: TestDatabase
  let database: Database
  beforeAll(async () => {
    scratch = await freshDatabase()
    database = await openConfiguredDatabase(
      parseConfig({ DATABASE_URL: scratch.url!, DATABASE_POOL_SIZE: '3', NODE_ENV: 'test' }),
    )
  })
  afterAll(async () => {
    await database?.close()
    await scratch?.close()
  })

  test('eight queries at once through either pool use at most 3 connections', async () => {
    const builder = await Promise.all(
      Array.from({ length: 8 }, () =>
        database.rows<{ pid: number }>(sql`select pg_backend_pid() as pid, pg_sleep(0.1)`),
      ),
    )
    const prepared = await Promise.all(Array.from({ length: 8 }, () => slowPid(database.db, [0.1])))
    expect(new Set(builder.map(([r]) => r.pid)).size).toBeLessThanOrEqual(3)
    expect(new Set(prepared.map(([r]) => r.pid)).size).toBeLessThanOrEqual(3)
    expect(new Set(prepared.map(([r]) => r.pid)).size).toBeGreaterThan(1) // side by side, not one after another
  })
})
