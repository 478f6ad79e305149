/**
 * The whole admin flow over real HTTP, as an operator and a member would use it with curl and a
 * cookie jar: the operator made at start-up logs in, adds a feed, scrapes, analyses and edits a
 * prompt; a member logs in, makes a key, uses it on the Data API and revokes it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ensureOperator } from '../../src/modules/accounts/operator'
import { createAccount } from '../../src/modules/accounts/service'
import { serve, type RunningServer } from '../../src/platform/serve'
import { testApp } from '../support/app'
import { freshDatabase, type TestDatabase } from '../support/database'
import { eventually } from '../support/eventually'
import { replayServer, type ReplayServer } from '../support/replay-server'

const FEED = `<?xml version="1.0"?><rss version="2.0"><channel><title>Aging news</title>
  <item><title>Senolytics clear senescent cells in old mice</title><link>https://news.test/senolytics</link><guid>n1</guid>
    <description>Dasatinib plus quercetin reduced senescent cell burden and extended healthspan in aged mice.</description></item>
  <item><title>Rapamycin and lifespan</title><link>https://news.test/rapamycin</link><guid>n2</guid>
    <description>Rapamycin extended median lifespan in male and female mice.</description></item>
</channel></rss>`

let database: TestDatabase
let server: RunningServer
let feeds: ReplayServer
let base: string
let login: { username: string; password: string }

beforeAll(async () => {
  database = await freshDatabase()
  const config = { adminUsername: 'admin', adminPassword: null }
  const made = await ensureOperator(database.db, config)
  login = { username: made!.username, password: made!.password }
  const app = await testApp(database, {}, { SCRAPE_ALLOW_PRIVATE: 'on', PUBLIC_BASE_URL: 'http://127.0.0.1' })
  server = serve(app.fetch, 0)
  base = `http://127.0.0.1:${server.port}`
  feeds = replayServer(() => new Response(FEED, { headers: { 'content-type': 'application/rss+xml' } }))
})
afterAll(async () => {
  await server.stop()
  await feeds.stop()
  await database.close()
})

/** A client with a cookie jar of one cookie, as `curl -c jar -b jar` keeps it. */
function client() {
  let cookie: string | null = null
  return async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = {}
    if (cookie) headers.cookie = cookie
    if (body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    const set = response.headers.get('set-cookie')
    if (set) cookie = set.split(';')[0].endsWith('=') ? null : set.split(';')[0]
    return { status: response.status, body: await response.json() }
  }
}

describe('the admin flow', () => {
  test('operator: login, source, scrape, analyse, prompt; member: login, key, Data API, revoke, refused within 2 s', async () => {
    const operator = client()
    expect((await operator('POST', '/api/auth/login', login)).body.data.user).toMatchObject({ username: 'admin', role: 'admin' })

    const source = await operator('POST', '/api/sources', { name: 'Aging news', url: `${feeds.url}/feed.xml`, tags: ['news'] })
    expect(source.status).toBe(201)
    const scrape = await operator('POST', '/api/scrape')
    expect(scrape.body.data.counts).toMatchObject({ sources: 1, failed: 0, added: 2 })
    const analyse = await operator('POST', '/api/analyze', { limit: 10 })
    expect(analyse.body.data.counts).toMatchObject({ articles: 2, articles_failed: 0 })
    const sources = await operator('GET', '/api/sources')
    expect(sources.body.data[0]).toMatchObject({ last_status: 'ok', article_count: 2 })
    const prompt = await operator('PUT', '/api/prompts/article', { text: 'Summarise the article for aging researchers; answer in JSON.' })
    expect(prompt.body.data).toMatchObject({ id: 'article', version: 2, changed: true })
    const jobs = await operator('GET', '/api/jobs?limit=5')
    expect(jobs.body.data.map((r: { job: string }) => r.job)).toEqual(['analyze', 'scrape'])

    await createAccount(database.db, { username: 'member-1', password: 'a member password', role: 'member' })
    const member = client()
    expect((await member('POST', '/api/auth/login', { username: 'member-1', password: 'a member password' })).status).toBe(200)
    expect((await member('GET', '/api/sources')).status).toBe(403)
    const created = await member('POST', '/api/keys', { label: 'notebook' })
    expect(created.status).toBe(201)
    const key = created.body.data.key as string
    const v1 = () => fetch(`${base}/api/v1/papers?min_relevance=0`, { headers: { authorization: `Bearer ${key}` } })
    expect((await v1()).status).toBe(200)
    expect((await member('DELETE', `/api/keys/${created.body.data.id}`)).body.data.revoked).toBe(true)
    const revokedAt = performance.now()
    expect(await eventually(async () => (await v1()).status === 401, 2000)).toBe(true)
    expect(performance.now() - revokedAt).toBeLessThan(2000)

    expect((await member('POST', '/api/auth/logout')).status).toBe(200)
    expect((await member('GET', '/api/keys')).status).toBe(401)
  })
})
