/**
 * Feeds of a search, an entity and a question, as RSS and JSON Feed: each parsed by two feed libraries
 * (rss-parser and feedsmith), carrying what the Data API lists for the same request in the same order,
 * answering conditional GETs, announced by its page, and refusing bad parameters with a precise message.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import Parser from 'rss-parser'
import { parseFeed, parseJsonFeed, parseRssFeed } from 'feedsmith'
import { req, useTestApp } from '../support/app'
import { bearer } from '../support/fixtures'
import { seedCharts } from './chart-corpus'

const api = useTestApp()
beforeAll(async () => {
  await seedCharts(api.database.db)
})

const data = async (path: string) => await (await api.app.handle(req(path, bearer(api.key)))).json()
const ORIGIN = 'https://geroscope.test'

/** Each feed: its page, its two addresses, and the site URLs its items must link to, from the Data API. */
const FEEDS: { name: string; page: string; feed: string; title: string; expected: () => Promise<string[]> }[] = [
  {
    name: 'search',
    page: '/search?q=p16',
    feed: '/search/feed',
    title: 'Geroscope: papers matching “p16”',
    expected: async () =>
      (await data('/api/v1/papers?q=p16&min_relevance=0&limit=50')).data.map((p: { site_url: string }) => p.site_url),
  },
  {
    name: 'entity',
    page: '/entities/gene/CDKN2A',
    feed: '/entities/gene/CDKN2A/feed',
    title: 'Geroscope: CDKN2A',
    expected: async () =>
      (await data('/api/v1/entities/gene/CDKN2A?limit=100')).data.papers.map((p: { site_url: string }) => p.site_url),
  },
  {
    name: 'question',
    page: '/evidence?subject=CDKN2A&object=senescence',
    feed: '/evidence/feed',
    title: 'Geroscope: CDKN2A and senescence',
    expected: async () =>
      (await data('/api/v1/claims?subject=CDKN2A&object=senescence&limit=50')).data.map(
        (c: { paper: { site_url: string } }) => c.paper.site_url,
      ),
  },
]
const query = (page: string) => page.slice(page.indexOf('?') === -1 ? page.length : page.indexOf('?'))

describe('feeds for a search, an entity and a question', () => {
  test.each(FEEDS)(
    '$name: RSS parsed by rss-parser and feedsmith, JSON Feed by feedsmith, both listing what the API lists',
    async (f) => {
      const expected = await f.expected()
      expect(expected.length).toBeGreaterThan(0)
      const rssResponse = await api.app.handle(req(`${f.feed}.xml${query(f.page)}`))
      expect(rssResponse.status).toBe(200)
      expect(rssResponse.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8')
      const xml = await rssResponse.text()
      const byRssParser = await new Parser().parseString(xml)
      expect(byRssParser.title).toBe(f.title)
      expect(byRssParser.items.map((i) => i.link)).toEqual(expected)
      const byFeedsmith = parseRssFeed(xml)
      expect(byFeedsmith.title).toBe(f.title)
      expect(byFeedsmith.items?.map((i) => i.link)).toEqual(expected)
      expect(parseFeed(xml).format).toBe('rss')
      expect(xml).toContain(
        `<atom:link href="${ORIGIN}${f.feed}.xml${query(f.page).replace(/&/g, '&amp;')}" rel="self" type="application/rss+xml"/>`,
      )

      const jsonResponse = await api.app.handle(req(`${f.feed}.json${query(f.page)}`))
      expect(jsonResponse.status).toBe(200)
      expect(jsonResponse.headers.get('content-type')).toBe('application/feed+json; charset=utf-8')
      const json = await jsonResponse.json()
      const parsed = parseJsonFeed(json)
      expect(parsed.title).toBe(f.title)
      expect(parsed.feed_url).toBe(`${ORIGIN}${f.feed}.json${query(f.page)}`)
      expect(parsed.items?.map((i) => i.url)).toEqual(expected)
      expect(parsed.items?.map((i) => i.date_published)).toEqual(
        byRssParser.items.map((i) => new Date(i.pubDate!).toISOString()),
      )
    },
  )

  test.each(FEEDS)('$name: conditional GET by ETag and by Last-Modified, in both formats', async (f) => {
    for (const ext of ['xml', 'json']) {
      const path = `${f.feed}.${ext}${query(f.page)}`
      const first = await api.app.handle(req(path))
      const etag = first.headers.get('etag')!
      const lastModified = first.headers.get('last-modified')!
      expect(etag).toMatch(/^"[\w-]{27}"$/)
      expect(first.headers.get('cache-control')).toBe('public, max-age=300')
      const byTag = await api.app.handle(req(path, { headers: { 'if-none-match': etag } }))
      expect({ path, status: byTag.status, body: await byTag.text() }).toEqual({ path, status: 304, body: '' })
      const byDate = await api.app.handle(req(path, { headers: { 'if-modified-since': lastModified } }))
      expect(byDate.status).toBe(304)
      const older = new Date(Date.parse(lastModified) - 1000).toUTCString()
      expect((await api.app.handle(req(path, { headers: { 'if-modified-since': older } }))).status).toBe(200)
      expect(
        (
          await api.app.handle(
            req(path, { headers: { 'if-none-match': '"other"', 'if-modified-since': lastModified } }),
          )
        ).status,
      ).toBe(200)
    }
  })

  test.each(FEEDS)('$name: its page links both formats in <head> and visibly', async (f) => {
    const html = await (await api.app.handle(req(f.page))).text()
    const rss = `${ORIGIN}${f.feed}.xml${query(f.page)}`.replace(/&/g, '&amp;')
    const json = `${ORIGIN}${f.feed}.json${query(f.page)}`.replace(/&/g, '&amp;')
    const title = f.title.replace(/&/g, '&amp;')
    expect(html).toContain(`<link rel="alternate" type="application/rss+xml" title="${title}" href="${rss}">`)
    expect(html).toContain(`<link rel="alternate" type="application/feed+json" title="${title}" href="${json}">`)
    expect(html).toContain(`<a href="${rss}">RSS feed</a>`)
    expect(html).toContain(`<a href="${json}">JSON Feed</a>`)
  })

  test('a search feed escapes the words it follows, as the story feeds escape theirs', async () => {
    // Readers show titles as HTML: the feed holds the HTML of the literal text (escaped for HTML, then for XML).
    const q = 'p16 <b>&"senescence"'
    const asHtml = 'p16 &lt;b&gt;&amp;&quot;senescence&quot;'
    const xml = await (await api.app.handle(req(`/search/feed.xml?${new URLSearchParams({ q })}`))).text()
    expect(xml).toContain(
      '<title>Geroscope: papers matching “p16 &amp;lt;b&amp;gt;&amp;amp;&amp;quot;senescence&amp;quot;”</title>',
    )
    expect((await new Parser().parseString(xml)).title).toBe(`Geroscope: papers matching “${asHtml}”`)
    expect(parseRssFeed(xml).title).toBe(`Geroscope: papers matching “${asHtml}”`)
    const titles = parseRssFeed(await (await api.app.handle(req('/search/feed.xml?q=p16'))).text()).items!.map(
      (i) => i.title,
    )
    expect(titles).toContain('Chart paper 59 on p16 &amp; senescence')
  })

  test('items carry topic and study type, the DOI, and at most 50 of them', async () => {
    const xml = await (await api.app.handle(req('/search/feed.xml?q=chart'))).text()
    const feed = parseRssFeed(xml)
    expect(feed.items).toHaveLength(50)
    const first = feed.items![0] // the newest indexed, and of those the first by id
    expect(first.guid?.value).toBe('geroscope:paper:MED-7017')
    expect(first.categories?.map((c) => c.name)).toEqual(['mTOR and rapamycin', 'human_trial'])
    expect(first.description).toStartWith('Aging Cell, published 2021-03-01, human trial.')
    expect(xml).toContain('<dc:identifier>doi:10.1000/test.')
  })

  test("an entity's feed asked for by another of its names is a 308 to its own feed, format and query kept", async () => {
    for (const format of ['xml', 'json']) {
      const response = await api.app.handle(
        req(`/entities/gene/cdkn2a/feed.${format}?x=1`) /* the key in another case */,
      )
      expect(response.status).toBe(308)
      expect(response.headers.get('location')).toBe(`https://geroscope.test/entities/gene/CDKN2A/feed.${format}?x=1`)
    }
  })

  test.each([
    ['/search/feed.xml', 400, 'q is required'],
    ['/search/feed.json?q=', 400, 'q is required'],
    ['/search/feed.json?q=%20', 400, 'q is required'],
    ['/search/feed.xml?q=the', 400, 'q has no searchable words'],
    ['/search/feed.xml?q=p16&topic=ageing', 400, 'topic'],
    ['/search/feed.xml?q=p16&since=2026-13-01', 400, 'since'],
    ['/search/feed.xml?q=p16&colour=red', 400, 'unknown parameter &quot;colour&quot;'],
    [`/search/feed.xml?q=${'x'.repeat(501)}`, 400, 'q'],
    ['/evidence/feed.xml?subject=CDKN2A', 400, 'subject and object are required'],
    ['/evidence/feed.json?subject=CDKN2A&object=senescence&study_type=animal', 400, 'study_type'],
    [
      '/evidence/feed.xml?subject=nothing-named-so&object=senescence',
      404,
      'no entity is named &quot;nothing-named-so&quot;',
    ],
    ['/entities/gene/NOPE/feed.xml', 404, 'no entity of type &quot;gene&quot; with key &quot;NOPE&quot;'],
    ['/entities/gene/%ff/feed.json', 404, 'not valid percent-encoded UTF-8'],
  ])('%s is a %i that says why', async (path, status, message) => {
    const response = await api.app.handle(req(path))
    expect({ path, status: response.status }).toEqual({ path, status })
    expect(await response.text()).toContain(message)
  })
})
