/**
 * DATABASE_REPLICA_URLS with a real streaming replica the test makes (`pg_basebackup -R` from a
 * primary of its own, both on spare ports): the data API reads from the replica, keys and their
 * counts stay on the primary, and a replica that lags past the bound or stops is left out, its
 * reads going to the primary without a failed request, until it is well again.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import postgres from 'postgres'
import { openDatabase, type Database } from '../../src/db/client'
import { migrateDatabase } from '../../src/db/migrate'
import { lsnValue } from '../../src/db/replicas'
import { req, testApp } from '../support/app'
import { testDriver } from '../support/database'
import { eventually } from '../support/eventually'
import { bearer, createTestKey, insertPapers, paperRow } from '../support/fixtures'
import { OwnCluster, ownClusterSupport } from '../support/own-cluster'

const leftOut = testDriver !== 'postgres' ? 'they run with the PostgreSQL suite (DATABASE_URL)' : ownClusterSupport()
if (leftOut) console.log(`read replica tests left out: ${leftOut}`)

test('WAL positions compare as numbers', () => {
  expect(lsnValue('0/16B3748')).toBe(0x16b3748n)
  expect(lsnValue('1/0') > lsnValue('0/FFFFFFFF')).toBe(true)
})

describe.skipIf(leftOut !== null)('reads on a streaming replica', () => {
  const MAX_LAG_MS = 4000
  let primary: OwnCluster
  let replica: OwnCluster
  let database: Database
  let onReplica: postgres.Sql
  let app: Awaited<ReturnType<typeof testApp>>
  let key: string
  const status = async (path: string, withKey = key) => (await app.handle(req(path, bearer(withKey)))).status
  const usable = () => database.replicas!.state()[0].usable

  beforeAll(async () => {
    primary = await OwnCluster.create()
    await primary.start()
    const setup = await openDatabase({ kind: 'postgres', url: primary.url, max: 2 })
    await migrateDatabase(setup, primary.url)
    await insertPapers(setup.db, [paperRow({ id: 'MED-1' })])
    key = (await createTestKey(setup.db, { tier: 'pro' })).key
    await setup.close()
    replica = await OwnCluster.replicaOf(primary)
    await replica.start()
    onReplica = postgres(replica.url, { max: 1, onnotice: () => {} })
    database = await openDatabase({
      kind: 'postgres',
      url: primary.url,
      max: 4,
      replicas: { urls: [replica.url], maxLagMs: MAX_LAG_MS, probeMs: 200 },
    })
    // No response cache: each answer below is read from a database, not from memory.
    app = await testApp(database, { responseCache: null })
  }, 120_000)

  afterAll(async () => {
    await onReplica?.end({ timeout: 0 })
    await database?.close()
    await replica?.destroy()
    await primary?.destroy()
  })

  test('the replica is a standby that streams, and serves the reads once a probe found it fresh', async () => {
    expect((await onReplica`select pg_is_in_recovery() as standby`)[0].standby).toBe(true)
    expect(await eventually(async () => usable(), 5000)).toBe(true)
    for (const path of ['/api/v1/papers', '/api/v1/papers/MED-1', '/api/v1/search?q=mice', '/api/v1/stats'])
      expect({ path, status: await status(path) }).toEqual({ path, status: 200 })
  })

  test('reads come from the replica; keys are checked on the primary', async () => {
    await onReplica`select pg_wal_replay_pause()`
    // Written on the primary after the replica stopped replaying: a new paper and a new key.
    await insertPapers(database.db, [paperRow({ id: 'MED-2' })])
    const fresh = (await createTestKey(database.db, { tier: 'pro' })).key
    // Within the lag bound the replica still serves: the key works (checked on the primary), the paper is not there yet.
    expect(await status('/api/v1/papers/MED-2', fresh)).toBe(404)
    expect(await status('/api/v1/papers/MED-1', fresh)).toBe(200)
    // Past the bound the replica is left out and the primary answers: the paper is there.
    expect(await eventually(async () => !usable(), MAX_LAG_MS + 3000)).toBe(true)
    expect(database.replicas!.state()[0].reason).toBe(`lags more than ${MAX_LAG_MS} ms behind the primary`)
    expect(await status('/api/v1/papers/MED-2', fresh)).toBe(200)
    // Caught up again, it serves again, and has the paper.
    await onReplica`select pg_wal_replay_resume()`
    expect(await eventually(async () => usable(), 5000)).toBe(true)
    expect(await status('/api/v1/papers/MED-2', fresh)).toBe(200)
    const [{ n }] = await onReplica<{ n: number }[]>`select count(*)::int as n from papers where id = 'MED-2'`
    expect(n).toBe(1)
  }, 30_000)

  test('a replica that stops: no request fails, the primary answers, and the replica is used again when it is back', async () => {
    expect(await eventually(async () => usable(), 5000)).toBe(true)
    await onReplica.end({ timeout: 0 })
    await replica.stop()
    // Before any probe noticed: the queries the replica fails run again on the primary.
    for (const path of [
      '/api/v1/papers',
      '/api/v1/papers/MED-2',
      '/api/v1/claims',
      '/api/v1/search?q=mice',
      '/api/v1/stats',
      '/api/v1/papers/MED-1',
    ]) {
      expect({ path, status: await status(path) }).toEqual({ path, status: 200 })
    }
    expect(usable()).toBe(false)
    await replica.start()
    expect(await eventually(async () => usable(), 10_000)).toBe(true)
    expect(await status('/api/v1/papers/MED-2')).toBe(200)
  }, 60_000)
})
