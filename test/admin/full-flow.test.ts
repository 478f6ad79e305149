/**
 * The acceptance flow of the admin interface, over a real socket, as an operator and a member would
 * use it with curl and a cookie jar. The database holds a small synthetic corpus (its planted
 * contradictions and gaps documented in src/seed/planted.ts); two sources point at a local feed
 * server that serves real feeds from ../shared/fixtures. The operator made at start-up logs in,
 * adds the sources, scrapes, analyses, writes a brief by window and one by tags, reads the planted
 * contradictions and gaps, edits a prompt; a member logs in, makes a key, uses it on the Data API,
 * revokes it, and the Data API refuses it within 2 seconds.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { inArray } from 'drizzle-orm'
import { articles, papers } from '../../src/db/schema'
import { ensureOperator } from '../../src/accounts/operator'
import { createAccount } from '../../src/accounts/accounts'
import { SESSION_COOKIE } from '../../src/modules/admin/auth/cookie'
import { serve, type RunningServer } from '../../src/platform/serve'
import { loadCorpus } from '../../src/seed/bulk-load'
import { testApp } from '../support/app'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { eventually } from '../support/eventually'
import { replayServer, type ReplayServer } from '../support/replay-server'
import { haveSharedFixtures, noteMissingFixtures, sharedFixtureBytes } from '../support/shared-fixtures'

noteMissingFixtures('the admin full flow')

const TODAY = new Date().toISOString().slice(0, 10)
const FEEDS: Record<string, string> = {
  '/ajph.xml': 'rss/feedjira/AtyponRSSFeed_AJPH.xml', // 20 items, RSS 1.0
  '/biorxiv.rdf': 'rss/miniflux/biorxiv_subject_collection_bioengineering.rdf.xml', // 1 item
}
// Planted in every block of 1,000 synthetic papers (src/seed/planted.ts).
const ACARBOSE_LIFESPAN = ['intervention:CHEBI:2376', 'phenotype:lifespan']
const TAURINE_IL6 = ['intervention:CHEBI:15891', 'biomarker:il-6-level']
const PLANTED_ONLY_ORGANISMS = [
  'golden hamster',
  'guinea pig',
  'medaka',
  'grey mouse lemur',
  'pig',
  'cynomolgus macaque',
  'rabbit',
]

let database: TestDatabase
let server: RunningServer
let feeds: ReplayServer
let base: string
let operatorLogin: { username: string; password: string }

beforeAll(async () => {
  if (!haveSharedFixtures) return
  database = await freshDatabase()
  await loadCorpus(database, { papers: 1000, seed: 5, endDate: TODAY, days: 90 })
  const made = await ensureOperator(database.db, { adminUsername: 'admin', adminPassword: null })
  operatorLogin = { username: made!.username, password: made!.password }
  // SCRAPE_ALLOW_PRIVATE lets the address guard accept the local feed server; PUBLIC_BASE_URL is
  // http, so the cookie carries no Secure attribute and the jar sends it over plain HTTP.
  const app = await testApp(database, {}, { SCRAPE_ALLOW_PRIVATE: 'on', PUBLIC_BASE_URL: 'http://127.0.0.1' })
  server = serve(app.fetch, 0)
  base = `http://127.0.0.1:${server.port}`
  feeds = replayServer((_, url) => {
    const path = FEEDS[url.pathname]
    return path
      ? new Response(sharedFixtureBytes(path), { headers: { 'content-type': 'application/xml' } })
      : new Response('not here', { status: 404 })
  })
}, 180_000)
afterAll(async () => {
  if (!haveSharedFixtures) return
  await server.stop()
  await feeds.stop()
  await database.close()
})

type Answer = { status: number; headers: Headers; body: any } // eslint-disable-line @typescript-eslint/no-explicit-any

/** A client with a cookie jar of one cookie, as `curl -c jar -b jar` keeps it; the last Set-Cookie is kept for inspection. */
function client() {
  const jar = { cookie: null as string | null, lastSetCookie: null as string | null }
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> => {
    const sent: Record<string, string> = { ...headers }
    if (jar.cookie) sent.cookie = jar.cookie
    if (body !== undefined) sent['content-type'] = 'application/json'
    const response = await fetch(`${base}${path}`, {
      method,
      headers: sent,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const set = response.headers.get('set-cookie')
    if (set) {
      jar.lastSetCookie = set
      const pair = set.split(';')[0]
      jar.cookie = pair.endsWith('=') ? null : pair
    }
    const text = await response.text()
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null }
  }
  return Object.assign(call, { jar })
}

type Citation = {
  ref: string
  type: 'paper' | 'article' | 'contradiction'
  paper_id: string | null
  article_id: number | null
  url: string | null
}
type Statement = { text: string; citations: string[] }

/** Every statement cites refs the brief lists, and every citation names a stored paper or article with its link. */
async function expectCitationsResolve(brief: {
  summary: Statement[]
  sections: { statements: Statement[] }[]
  citations: Citation[]
}) {
  const refs = new Set(brief.citations.map((c) => c.ref))
  const statements = [...brief.summary, ...brief.sections.flatMap((s) => s.statements)]
  expect(statements.length).toBeGreaterThan(0)
  for (const s of statements) {
    expect(s.citations.length).toBeGreaterThan(0)
    for (const ref of s.citations) expect(refs).toContain(ref)
  }
  const paperIds = brief.citations.filter((c) => c.type === 'paper').map((c) => c.paper_id!)
  const articleIds = brief.citations.filter((c) => c.type === 'article').map((c) => c.article_id!)
  const storedPapers = paperIds.length
    ? await database.db.select({ id: papers.id, url: papers.url }).from(papers).where(inArray(papers.id, paperIds))
    : []
  const storedArticles = articleIds.length
    ? await database.db
        .select({ id: articles.id, link: articles.link })
        .from(articles)
        .where(inArray(articles.id, articleIds))
    : []
  expect(storedPapers.map((p) => p.id).sort()).toEqual([...new Set(paperIds)].sort())
  expect(storedArticles.map((a) => a.id).sort()).toEqual([...new Set(articleIds)].sort())
  for (const c of brief.citations) {
    if (c.type === 'article') expect(c.url).toBe(storedArticles.find((a) => a.id === c.article_id)!.link)
    else if (c.type === 'paper') expect(c.url).toBe(storedPapers.find((p) => p.id === c.paper_id)!.url)
    else expect(c.url).toMatch(/\/api\/intelligence\/contradictions\/c[0-9a-f]{16}$/) // a contradiction, cited as C<n>
  }
  return { paperIds, articleIds }
}

describe.skipIf(!haveSharedFixtures)(`the admin flow on ${testDriver}`, () => {
  const operator = client()
  const member = client()
  let memberId = 0
  const briefIds: number[] = []

  test('the operator logs in: an HttpOnly, SameSite=Lax session cookie; a cross-site write is refused', async () => {
    const login = await operator('POST', '/api/auth/login', operatorLogin)
    expect(login.status).toBe(200)
    expect(login.body.data.user).toMatchObject({ username: 'admin', role: 'admin' })
    const cookie = operator.jar.lastSetCookie!
    expect(cookie).toStartWith(`${SESSION_COOKIE}=`)
    expect(cookie).toMatch(/; HttpOnly/i)
    expect(cookie).toMatch(/; SameSite=Lax/i)
    expect(cookie).not.toMatch(/; Secure/i)
    const forged = await operator(
      'POST',
      '/api/sources',
      { name: 'x', url: `${feeds.url}/ajph.xml` },
      { origin: 'https://elsewhere.test' },
    )
    expect(forged.status).toBe(403)
    expect(forged.body.error.code).toBe('forbidden')
  })

  test('adds two sources pointing at the local feed server, and a duplicate is 409', async () => {
    const journal = await operator('POST', '/api/sources', {
      name: 'AJPH',
      url: `${feeds.url}/ajph.xml`,
      tags: ['journals'],
    })
    expect(journal.status).toBe(201)
    const preprints = await operator('POST', '/api/sources', {
      name: 'bioRxiv bioengineering',
      url: `${feeds.url}/biorxiv.rdf`,
      tags: ['preprints'],
    })
    expect(preprints.status).toBe(201)
    const again = await operator('POST', '/api/sources', { name: 'again', url: `${feeds.url}/ajph.xml` })
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe('conflict')
  })

  test('scrapes both sources, then analyses the new articles with the built-in analyzer', async () => {
    const scrape = await operator('POST', '/api/scrape')
    expect(scrape.status).toBe(200)
    expect(scrape.body.data.counts).toMatchObject({ sources: 2, failed: 0, added: 21 })
    const analyse = await operator('POST', '/api/analyze', { limit: 100 })
    expect(analyse.status).toBe(200)
    expect(analyse.body.data.counts).toMatchObject({ articles: 21, articles_failed: 0 })
    const sources = await operator('GET', '/api/sources')
    expect(
      sources.body.data
        .map((s: { name: string; last_status: string; article_count: number }) => [
          s.name,
          s.last_status,
          s.article_count,
        ])
        .sort(),
    ).toEqual([
      ['AJPH', 'ok', 20],
      ['bioRxiv bioengineering', 'ok', 1],
    ])
    const jobs = await operator('GET', '/api/jobs?limit=5')
    expect(jobs.body.data.map((r: { job: string; status?: string }) => r.job)).toEqual(['analyze', 'scrape'])
  }, 60_000)

  test("a brief by window cites the week's papers and the analysed articles, and is stored", async () => {
    const since = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10)
    const made = await operator('POST', '/api/generate-brief', { since, until: TODAY })
    expect(made.status).toBe(201)
    const id = made.body.data.id
    expect(made.headers.get('location')).toBe(made.body.data.url)
    const { status, body } = await operator('GET', `/api/briefs/${id}`)
    expect(status).toBe(200)
    expect(body.data).toMatchObject({
      id,
      kind: 'comprehensive',
      window: { since, until: TODAY },
      model: 'geroscope-builtin-1',
    })
    const { paperIds, articleIds } = await expectCitationsResolve(body.data)
    expect(paperIds.length).toBeGreaterThan(0)
    expect(articleIds.length).toBeGreaterThan(0)
    briefIds.push(id)
  }, 60_000)

  test("a brief by source tag cites only the tagged source's article", async () => {
    const made = await operator('POST', '/api/generate-brief/tag-based', { source_tags: ['preprints'] })
    expect(made.status).toBe(201)
    const { body } = await operator('GET', `/api/briefs/${made.body.data.id}`)
    expect(body.data).toMatchObject({ kind: 'tag_based', filters: { source_tags: ['preprints'] } })
    const { paperIds, articleIds } = await expectCitationsResolve(body.data)
    expect(paperIds).toEqual([])
    const [article] = await database.db
      .select({ link: articles.link })
      .from(articles)
      .where(inArray(articles.id, articleIds))
    expect(articleIds).toHaveLength(1)
    expect(article!.link).toContain('biorxiv.org')
    briefIds.push(made.body.data.id)
    const listed = await operator('GET', '/api/briefs')
    expect(listed.body.data.map((b: { id: number }) => b.id)).toEqual([...briefIds].reverse())
  }, 60_000)

  test('contradictions: the planted ones are found, and nothing else in the organisms only planting uses', async () => {
    const pages: {
      subject: { key: string }
      object: { key: string }
      organisms: { name: string }[]
      pairs: { increase: { paper: { id: string } }; decrease: { paper: { id: string } } }[]
    }[] = []
    let cursor: string | null = null
    do {
      const page: Answer = await operator(
        'GET',
        `/api/intelligence/contradictions?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      )
      expect(page.status).toBe(200)
      pages.push(...page.body.data)
      cursor = page.body.pagination.next_cursor
    } while (cursor)
    const pairOf = (g: (typeof pages)[number]) => [g.subject.key, g.object.key]
    expect(pages.map(pairOf)).toContainEqual(ACARBOSE_LIFESPAN)
    expect(pages.map(pairOf)).toContainEqual(TAURINE_IL6)
    const inPlantedOrganisms = pages.filter((g) =>
      g.organisms.some(
        (o) =>
          PLANTED_ONLY_ORGANISMS.some((name) => o.name.toLowerCase().includes(name)) ||
          /Mesocricetus|Cavia|Oryzias|Microcebus|Sus scrofa|Macaca fascicularis|Oryctolagus/.test(o.name),
      ),
    )
    expect(inPlantedOrganisms.map(pairOf).sort()).toEqual([ACARBOSE_LIFESPAN, TAURINE_IL6].sort())
    // Both papers of a pair are real papers of the corpus.
    const cited = pages.flatMap((g) => g.pairs.flatMap((p) => [p.increase.paper.id, p.decrease.paper.id]))
    const stored = await database.db
      .select({ id: papers.id })
      .from(papers)
      .where(inArray(papers.id, [...new Set(cited)]))
    expect(stored).toHaveLength(new Set(cited).size)
  }, 60_000)

  test('gaps: follistatin gene therapy has animal lifespan evidence and no human trial; acarbose, with a trial, is not that gap', async () => {
    const { status, body } = await operator('GET', '/api/intelligence/gaps?kind=no_human_trial&limit=100')
    expect(status).toBe(200)
    const labels = body.data.map((g: { subject: { label: string } | null }) => g.subject?.label ?? '')
    expect(labels.some((l: string) => /follistatin/i.test(l))).toBe(true)
    expect(labels.some((l: string) => /acarbose/i.test(l))).toBe(false)
    const disputed = await operator('GET', '/api/intelligence/gaps?kind=disputed_finding&limit=100')
    const links = disputed.body.data.map(
      (g: { subject: { key: string }; object: { key: string }; contradiction_id: string | null }) => [
        g.subject.key,
        g.object.key,
        g.contradiction_id !== null,
      ],
    )
    expect(links).toContainEqual([...ACARBOSE_LIFESPAN, true])
  })

  test('edits the brief prompt: the version goes up and the history keeps the earlier text', async () => {
    const before = await operator('GET', '/api/prompts/brief')
    expect(before.status).toBe(200)
    const text = 'Write a weekly brief for aging researchers from the material given; cite every statement.'
    const edited = await operator('PUT', '/api/prompts/brief', { text })
    expect(edited.status).toBe(200)
    expect(edited.body.data).toMatchObject({ id: 'brief', version: before.body.data.version + 1, changed: true })
    const after = await operator('GET', '/api/prompts/brief')
    expect(after.body.data.versions.map((v: { version: number }) => v.version)).toEqual([
      before.body.data.version + 1,
      before.body.data.version,
    ])
    expect(after.body.data.text).toBe(text)
    const unknown = await operator('PUT', '/api/prompts/brief', { text, note: 'why' })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error.message).toContain('"note"')
  })

  test('a member logs in, is refused operator routes, makes a key and uses it on /api/v1', async () => {
    memberId = (
      await createAccount(database.db, { username: 'member-1', password: 'a member password', role: 'member' })
    ).id
    expect(
      (await member('POST', '/api/auth/login', { username: 'member-1', password: 'a wrong password' })).status,
    ).toBe(401)
    expect(
      (await member('POST', '/api/auth/login', { username: 'member-1', password: 'a member password' })).status,
    ).toBe(200)
    expect((await member('GET', '/api/auth/me')).body.data.user).toMatchObject({ id: memberId, role: 'member' })
    expect((await member('GET', '/api/sources')).status).toBe(403)
    expect((await member('POST', '/api/generate-brief', {})).status).toBe(403)
  })

  test('revokes the key: the Data API refuses it within 2 s; logout ends the session', async () => {
    const created = await member('POST', '/api/keys', { label: 'notebook' })
    expect(created.status).toBe(201)
    const key = created.body.data.key as string
    const v1 = () => fetch(`${base}/api/v1/papers?limit=3`, { headers: { authorization: `Bearer ${key}` } })
    const used = await v1()
    expect(used.status).toBe(200)
    expect((await used.json()).data).toHaveLength(3)
    const listed = await member('GET', '/api/keys')
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: created.body.data.id, label: 'notebook', tier: 'member', revoked: false }),
    ])

    expect((await member('DELETE', `/api/keys/${created.body.data.id}`)).body.data.revoked).toBe(true)
    const revokedAt = performance.now()
    expect(await eventually(async () => (await v1()).status === 401, 2000)).toBe(true)
    expect(performance.now() - revokedAt).toBeLessThan(2000)

    const session = member.jar.cookie!
    expect((await member('POST', '/api/auth/logout')).status).toBe(200)
    expect(member.jar.cookie).toBeNull()
    const replayed = await fetch(`${base}/api/keys`, { headers: { cookie: session } })
    expect(replayed.status).toBe(401)
    expect((await replayed.json()).error.code).toBe('unauthenticated')
  })
})
