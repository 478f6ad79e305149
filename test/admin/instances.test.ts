/**
 * Two app instances on one database, as behind a load balancer: what one changes through the admin
 * interface the other's Data API obeys within 2 seconds (KEYS_CHANGED), and a job one runs the other
 * cannot start twice. On PostgreSQL the instances have their own connection pools, as two processes
 * would; on PGlite (one process by nature) they share the embedded database.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { KEYS_CHANGED } from '../../src/db/changes'
import { openDatabase, type Database } from '../../src/db/client'
import { KeyUsageRecorder } from '../../src/accounts/key-last-used'
import { adminRequest, freshAddress, sessionFrom } from '../support/admin'
import { testApp } from '../support/app'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { eventually } from '../support/eventually'
import { bearer } from '../support/fixtures'
import { createAccount } from '../../src/accounts/accounts'
import { rssSources } from '../../src/db/schema'
import { replayServer, type ReplayServer } from '../support/replay-server'

let database: TestDatabase
let second: Database
let a: Awaited<ReturnType<typeof testApp>>
let b: Awaited<ReturnType<typeof testApp>>
let usageB: KeyUsageRecorder
let operator: string
let feeds: ReplayServer
let releaseFeed: () => void = () => {}

beforeAll(async () => {
  database = await freshDatabase()
  second = database.url ? await openDatabase({ kind: 'postgres', url: database.url, max: 4 }) : database
  const env = { TRUST_PROXY: '1', SCRAPE_ALLOW_PRIVATE: 'on' }
  a = await testApp(database, {}, env)
  usageB = new KeyUsageRecorder(second, { flushEveryMs: 0 })
  b = await testApp(second, { keyUsage: usageB }, env)
  await createAccount(database.db, { username: 'ops', password: 'a long password', role: 'admin' })
  const login = await a.handle(
    adminRequest('/api/auth/login', {
      body: { username: 'ops', password: 'a long password' },
      address: freshAddress(),
    }),
  )
  operator = sessionFrom(login)!
  let held = new Promise<void>((resolve) => {
    releaseFeed = resolve
  })
  feeds = replayServer(async () => {
    await held
    held = Promise.resolve()
    return new Response(
      '<rss version="2.0"><channel><item><title>T</title><link>https://a.test/slow</link></item></channel></rss>',
    )
  })
})
afterAll(async () => {
  releaseFeed()
  await feeds.stop()
  if (second !== database) await second.close()
  await database.close()
})

const onA = (path: string, options: Parameters<typeof adminRequest>[1] = {}) =>
  a.handle(adminRequest(path, { cookie: operator, address: freshAddress(), ...options }))
const v1OnB = (key: string) => b.handle(new Request('https://geroscope.test/api/v1/topics', bearer(key)))

async function memberWithKey(username: string) {
  const created = await (
    await onA('/api/accounts', { body: { username, password: 'a long password', role: 'member' } })
  ).json()
  const key = await (await onA(`/api/accounts/${created.data.id}/keys`, { body: { tier: 'member' } })).json()
  return { accountId: created.data.id as number, keyId: key.data.id as string, key: key.data.key as string }
}

describe(`two instances on ${testDriver}`, () => {
  test("a key revoked through one is refused by the other's Data API within 2 seconds", async () => {
    const { keyId, key } = await memberWithKey('two-instances-1')
    expect((await v1OnB(key)).status).toBe(200) // B now holds the key in its cache
    expect((await onA(`/api/keys/${keyId}`, { method: 'DELETE' })).status).toBe(200)
    const started = performance.now()
    expect(await eventually(async () => (await v1OnB(key)).status === 401, 2000)).toBe(true)
    expect(performance.now() - started).toBeLessThan(2000)
  })

  test('a lapsed membership set through one is refused by the other within 2 seconds', async () => {
    const { accountId, key } = await memberWithKey('two-instances-2')
    expect((await v1OnB(key)).status).toBe(200)
    expect((await onA(`/api/accounts/${accountId}`, { method: 'PATCH', body: { membership: 'lapsed' } })).status).toBe(
      200,
    )
    expect(await eventually(async () => (await v1OnB(key)).status === 403, 2000)).toBe(true)
    expect((await (await v1OnB(key)).json()).error.code).toBe('plan_required')
  })

  test('an account disabled through one has its keys refused by the other within 2 s; enabled, back', async () => {
    const { accountId, key } = await memberWithKey('two-instances-4')
    expect((await v1OnB(key)).status).toBe(200) // B now holds the key in its cache
    expect((await onA(`/api/accounts/${accountId}/disable`, { method: 'POST' })).status).toBe(200)
    const started = performance.now()
    expect(await eventually(async () => (await v1OnB(key)).status === 401, 2000)).toBe(true)
    expect(performance.now() - started).toBeLessThan(2000)
    expect((await (await v1OnB(key)).json()).error.code).toBe('revoked_key')
    expect((await onA(`/api/accounts/${accountId}/enable`, { method: 'POST' })).status).toBe(200)
    expect(await eventually(async () => (await v1OnB(key)).status === 200, 2000)).toBe(true)
  })

  test('writing last_used_at does not empty key caches: only changes a key check reads notify', async () => {
    const heard: string[] = []
    const stop = await database.listen(KEYS_CHANGED, (table) => heard.push(table))
    try {
      const { keyId, key } = await memberWithKey('two-instances-3')
      expect(await eventually(async () => heard.includes('api_keys'))).toBe(true) // the key's creation, heard
      await Bun.sleep(100)
      heard.length = 0
      expect((await v1OnB(key)).status).toBe(200)
      await usageB.flush()
      await Bun.sleep(300)
      expect(heard).toEqual([])
      expect((await onA(`/api/keys/${keyId}`, { method: 'DELETE' })).status).toBe(200)
      expect(await eventually(async () => heard.includes('api_keys'))).toBe(true)
    } finally {
      await stop()
    }
  })

  test('a scrape running on one is a 409 on the other, never a second run', async () => {
    await database.db.insert(rssSources).values({ name: 'Slow', url: `${feeds.url}/slow` })
    const running = onA('/api/scrape', { method: 'POST' })
    expect(await eventually(async () => feeds.requests.length > 0, 5000)).toBe(true) // the first run holds the lock
    const refused = await b.handle(
      adminRequest('/api/scrape', { method: 'POST', cookie: operator, address: freshAddress() }),
    )
    expect(refused.status).toBe(409)
    expect(await refused.json()).toEqual({
      error: {
        status: 409,
        code: 'conflict',
        message: 'job scrape is already running (in this or another process); try again when it ends',
      },
    })
    releaseFeed()
    const done = await running
    expect(done.status).toBe(200)
    expect((await done.json()).data.counts).toMatchObject({ sources: 1, failed: 0, added: 1 })
    expect(feeds.requests).toHaveLength(1)
  })
})
