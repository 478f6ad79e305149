import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { parseConfig } from '../../src/config'
import { articles, rssSources } from '../../src/db/schema'
import { scrapeFeeds, type ScrapeOptions } from '../../src/pipeline/ingest/rss/scrape'
import { freshDatabase, type TestDatabase } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'
import { replayServer, type ReplayServer } from '../support/replay-server'
import { haveSharedFixtures, noteMissingFixtures, sharedFixtureBytes } from '../support/shared-fixtures'

noteMissingFixtures('rss scrape')

const allowPrivate = parseConfig({ SCRAPE_ALLOW_PRIVATE: 'on' })
const fast: ScrapeOptions = { fetch: { timeoutMs: 2_000, maxBytes: 200_000, maxRedirects: 3 } } // generous: good feeds must answer in time on a loaded machine

/** A feed of our own, for what the real ones lack: DOIs in every place, and repeats by guid, link and DOI. */
const doiFeed = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/">
<channel><title>Aging journal</title>
  <item><title>Senolytics in old mice</title><link>https://journal.test/doi/10.1111/acel.70001</link><guid>a1</guid></item>
  <item><title>Same guid again</title><link>https://journal.test/other</link><guid>a1</guid></item>
  <item><title>Epigenetic clocks</title><link>https://journal.test/2</link><guid>a2</guid><prism:doi>10.1038/S43587-026-00002-X</prism:doi></item>
  <item><title>Same link as a2</title><link>https://journal.test/2</link><guid>a2-copy</guid></item>
  <item><title>Rapamycin &amp; lifespan</title><link>https://journal.test/3</link><guid>a3</guid><description>Read it at https://doi.org/10.1016/j.cmet.2026.01.003 today.</description></item>
  <item><title>Same DOI as a3</title><link>https://journal.test/3b</link><guid>a3b</guid><dc:identifier>doi:10.1016/j.cmet.2026.01.003</dc:identifier></item>
</channel></rss>`

let server: ReplayServer
let etagAsked: string[] = []
beforeAll(() => {
  server = replayServer(async (request, url) => {
    const path = url.pathname
    if (path.startsWith('/fixture/')) {
      return new Response(sharedFixtureBytes(`rss/${path.slice('/fixture/'.length)}`), {
        headers: { 'content-type': 'application/xml' },
      })
    }
    switch (path) {
      case '/doi-feed':
        return new Response(doiFeed, { headers: { 'content-type': 'application/rss+xml' } })
      case '/conditional':
        etagAsked.push(request.headers.get('if-none-match') ?? '')
        if (request.headers.get('if-none-match') === '"v1"') return new Response(null, { status: 304 })
        return new Response(doiFeed, { headers: { etag: '"v1"', 'last-modified': 'Fri, 20 Nov 2026 10:00:00 GMT' } })
      case '/agent':
        return new Response(
          `<rss version="2.0"><channel><item><title>${request.headers.get('user-agent')}</title><link>https://a.test/ua</link></item></channel></rss>`,
        )
      case '/html':
        return new Response('<!DOCTYPE html><html><body>Please enable JavaScript</body></html>', {
          headers: { 'content-type': 'text/html' },
        })
      case '/missing':
        return new Response('not here', { status: 404 })
      case '/slow':
        await Bun.sleep(6_000)
        return new Response(doiFeed)
      case '/huge':
        return new Response(
          `<rss version="2.0"><channel>${'<item><title>x</title></item>'.repeat(20_000)}</channel></rss>`,
        )
      case '/huge-stream': {
        // no Content-Length: the cap must hold while reading
        const chunk = new TextEncoder().encode('<item><title>x</title></item>'.repeat(1000))
        let sent = 0
        return new Response(
          new ReadableStream({
            pull: (c) => {
              if (sent++ < 50) c.enqueue(chunk)
              else c.close()
            },
          }),
        )
      }
      case '/loop':
        return new Response(null, { status: 302, headers: { location: '/loop' } })
      case '/moved':
        return new Response(null, { status: 301, headers: { location: '/doi-feed' } })
      case '/latin1': // ISO-8859-1 bytes, declared only in Content-Type
        return new Response(
          new Uint8Array([
            ...new TextEncoder().encode('<rss version="2.0"><channel><item><title>Caf'),
            0xe9,
            ...new TextEncoder().encode(' au lait</title><link>https://a.test/cafe</link></item></channel></rss>'),
          ]),
          { headers: { 'content-type': 'application/rss+xml; charset=ISO-8859-1' } },
        )
      default:
        return new Response('?', { status: 500 })
    }
  })
})
afterAll(async () => {
  await server.stop()
})

async function withSources(urls: Record<string, string>, work: (db: TestDatabase) => Promise<void>) {
  const database = await freshDatabase()
  try {
    await database.db
      .insert(rssSources)
      .values(
        Object.entries(urls).map(([name, path]) => ({ name, url: path.startsWith('http') ? path : server.url + path })),
      )
    await work(database)
  } finally {
    await database.close()
  }
}

const sourceRow = async (db: TestDatabase, name: string) =>
  (await db.db.select().from(rssSources).where(eq(rssSources.name, name)))[0]

describe('scrapeFeeds', () => {
  test('stores each article once per source, by guid, then link, then DOI, and links it to the paper with its DOI', async () => {
    await withSources({ journal: '/doi-feed', mirror: '/moved' }, async (database) => {
      await insertPapers(database.db, [
        paperRow({ id: 'MED-1', doi: '10.1111/acel.70001' }),
        paperRow({ id: 'MED-2', doi: '10.1016/j.cmet.2026.01.003' }),
      ])
      const counts = await scrapeFeeds(database, allowPrivate, fast)
      // The mirror (same feed behind a redirect) keeps its own copies, each pointing at the first (rss-copies.test.ts).
      expect(counts).toMatchObject({ sources: 2, failed: 0, items: 12, added: 6, linked: 4 })
      const journal = await sourceRow(database, 'journal')
      const rows = await database.db
        .select({ guid: articles.guid, doi: articles.doi, paperId: articles.paperId, title: articles.title })
        .from(articles)
        .where(eq(articles.sourceId, journal.id))
        .orderBy(articles.guid)
      expect(rows).toEqual([
        { guid: 'a1', doi: '10.1111/acel.70001', paperId: 'MED-1', title: 'Senolytics in old mice' },
        { guid: 'a2', doi: '10.1038/s43587-026-00002-x', paperId: null, title: 'Epigenetic clocks' },
        { guid: 'a3', doi: '10.1016/j.cmet.2026.01.003', paperId: 'MED-2', title: 'Rapamycin & lifespan' },
      ])
      const copies = await database.rows<{
        guid: string
        firsts: number
      }>(sql`select guid, count(*) filter (where copy_of is null)::int as firsts
        from articles group by guid order by guid`)
      expect(copies).toEqual([
        { guid: 'a1', firsts: 1 },
        { guid: 'a2', firsts: 1 },
        { guid: 'a3', firsts: 1 },
      ])
      expect(await scrapeFeeds(database, allowPrivate, fast)).toMatchObject({ added: 0 })
    })
  })

  test('sends a polite User-Agent and uses conditional GET', async () => {
    await withSources({ agent: '/agent', conditional: '/conditional' }, async (database) => {
      etagAsked = []
      await scrapeFeeds(database, allowPrivate, fast)
      const [ua] = await database.db
        .select({ title: articles.title })
        .from(articles)
        .where(eq(articles.link, 'https://a.test/ua'))
      expect(ua.title).toStartWith('Geroscope/')
      expect(await sourceRow(database, 'conditional')).toMatchObject({
        etag: '"v1"',
        lastModified: 'Fri, 20 Nov 2026 10:00:00 GMT',
      })
      const again = await scrapeFeeds(database, allowPrivate, fast)
      expect(again).toMatchObject({ notModified: 1, failed: 0 })
      expect(etagAsked).toEqual(['', '"v1"'])
    })
  })

  test('decodes a charset given only in Content-Type', async () => {
    await withSources({ latin1: '/latin1' }, async (database) => {
      await scrapeFeeds(database, allowPrivate, fast)
      expect((await database.db.select({ title: articles.title }).from(articles))[0].title).toBe('Café au lait')
    })
  })

  test('a broken source records its error and failure count, and the others carry on', async () => {
    const broken = {
      html: '/html',
      missing: '/missing',
      slow: '/slow',
      huge: '/huge',
      stream: '/huge-stream',
      loop: '/loop',
    }
    await withSources({ ...broken, good: '/doi-feed' }, async (database) => {
      const counts = await scrapeFeeds(database, allowPrivate, fast)
      expect(counts).toMatchObject({ sources: 7, failed: 6, added: 3 })
      const errors = Object.fromEntries(
        await Promise.all(Object.keys(broken).map(async (name) => [name, (await sourceRow(database, name)).lastError])),
      )
      expect(errors).toEqual({
        html: 'an HTML page, not a feed',
        missing: 'HTTP 404',
        slow: 'no complete answer within 2000 ms',
        huge: 'feed is larger than 200000 bytes (Content-Length 580044)',
        stream: 'feed is larger than 200000 bytes',
        loop: 'more than 3 redirects',
      })
      await scrapeFeeds(database, allowPrivate, fast)
      expect(await sourceRow(database, 'missing')).toMatchObject({ consecutiveFailures: 2 })
      const good = await sourceRow(database, 'good')
      expect(good).toMatchObject({ lastError: null, consecutiveFailures: 0 })
      expect(good.lastSuccessAt).not.toBeNull()
    })
  })

  test('refuses loopback feeds unless SCRAPE_ALLOW_PRIVATE is on, and recovers when allowed', async () => {
    await withSources({ local: '/doi-feed' }, async (database) => {
      expect(await scrapeFeeds(database, parseConfig({}), fast)).toMatchObject({ failed: 1, added: 0 })
      expect((await sourceRow(database, 'local')).lastError).toContain(
        '127.0.0.1 is a private, loopback or link-local address',
      )
      expect(await scrapeFeeds(database, allowPrivate, fast)).toMatchObject({ failed: 0, added: 3 })
      expect(await sourceRow(database, 'local')).toMatchObject({ lastError: null, consecutiveFailures: 0 })
    })
  })

  test('skips disabled sources', async () => {
    await withSources({ off: '/doi-feed' }, async (database) => {
      await database.db.update(rssSources).set({ enabled: false })
      expect(await scrapeFeeds(database, allowPrivate, fast)).toMatchObject({ sources: 0 })
    })
  })
})

describe.if(haveSharedFixtures)('scrapeFeeds on real feeds', () => {
  test('reads the real feeds and records the malformed ones as errors', async () => {
    const feeds = {
      ajph: 'feedjira/AtyponRSSFeed_AJPH.xml',
      biorxiv: 'miniflux/biorxiv_subject_collection_bioengineering.rdf.xml',
      science: 'rss-parser/rss-1.rss',
      guardian: 'rss-parser/guardian.rss',
      heise: 'rss-parser/heise.atom',
      koi8r: 'miniflux/encoding_koi8r.xml',
      dupes: 'node-feedparser/guid-dupes.xml',
      saxerror: 'node-feedparser/saxerror.xml',
      truncated: 'feedparser/illformed/aaa_illformed.xml',
      cdata: 'feedparser/illformed/rss_incomplete_cdata.xml',
      empty: 'feedparser/illformed/rss_empty_document.xml',
      moved: 'rss-parser/unrecognized.rss',
      badbytes: 'feedparser/encoding-bozo/bozo_invalid-bytes-with-bom.xml',
    }
    await withSources(
      Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, `/fixture/${v}`])),
      async (database) => {
        // Nothing here is about timeouts: a generous one, so a busy machine's PGlite work cannot make a feed late.
        const counts = await scrapeFeeds(database, allowPrivate, { fetch: { ...fast.fetch, timeoutMs: 10_000 } })
        expect(counts.failed).toBe(5)
        const failed = (
          await database.db
            .select({ name: rssSources.name })
            .from(rssSources)
            .where(sql`${rssSources.lastError} is not null`)
            .orderBy(rssSources.name)
        ).map((r) => r.name)
        expect(failed).toEqual(['badbytes', 'cdata', 'empty', 'moved', 'truncated'])
        const perSource = await database.rows<{ name: string; n: number; dois: number }>(sql`
        select s.name, count(a.id)::int as n, count(a.doi)::int as dois from rss_sources s left join articles a on a.source_id = s.id group by s.name order by s.name`)
        const by = Object.fromEntries(perSource.map((r) => [r.name, r]))
        expect(by.ajph).toMatchObject({ n: 20, dois: 20 })
        expect(by.biorxiv).toMatchObject({ n: 1, dois: 1 })
        expect(by.science.n).toBe(69)
        expect(by.dupes.n).toBe(1)
        expect(by.saxerror.n).toBe(3)
        expect(by.koi8r.n).toBe(2)
      },
    )
  })
})
