/** RSS 2.0 feeds of stories: every feed parses with rss-parser, carries its channel metadata, and answers conditional GETs. */
import { beforeAll, describe, expect, test } from 'bun:test'
import Parser from 'rss-parser'
import { TOPIC_INFO } from '../../src/taxonomy'
import { req, useTestApp } from '../support/app'
import { STORIES_IN_SENESCENCE, seedSite } from './corpus'

const api = useTestApp()
beforeAll(async () => {
  await seedSite(api.database.db)
})

const parser = new Parser<{ lastBuildDate?: string }, { identifier?: string }>({
  customFields: { feed: ['lastBuildDate'], item: [['dc:identifier', 'identifier']] as never },
})
const FEEDS = ['/feed.xml', ...TOPIC_INFO.map((t) => `/topics/${t.slug}/feed.xml`)]

describe('feeds', () => {
  test('every feed parses with rss-parser and has lastBuildDate and an atom:link rel=self to itself', async () => {
    for (const path of FEEDS) {
      const response = await api.app.handle(req(path))
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8')
      const xml = await response.text()
      const feed = await parser.parseString(xml)
      expect(feed.title).toStartWith('Geroscope')
      expect(Number.isNaN(Date.parse(String(feed.lastBuildDate)))).toBe(false)
      expect(xml).toContain(`<atom:link href="https://geroscope.test${path}" rel="self" type="application/rss+xml"/>`)
    }
  })

  test("the all-stories feed has every story, newest first, with categories and the paper's DOI", async () => {
    const feed = await parser.parseString(await (await api.app.handle(req('/feed.xml'))).text())
    expect(feed.items).toHaveLength(STORIES_IN_SENESCENCE + 1)
    expect(feed.items[0].title).toBe('Rapamycin &amp; the mouse') // HTML for the reader (feeds-untrusted-text.test.ts)
    expect(feed.items[0].link).toBe('https://geroscope.test/stories/MED-1')
    expect((feed.items[0] as { identifier?: string }).identifier).toBe('doi:10.1000/rapa.1')
    const categories = (feed.items[0].categories ?? []).map((c: string | { _: string }) =>
      typeof c === 'string' ? c : c._,
    )
    expect(categories).toEqual(['mTOR and rapamycin', 'animal'])
    expect(feed.items[0].content).toContain('doi:10.1000/rapa.1')
  })

  test("a topic feed has only its topic's stories", async () => {
    const feed = await parser.parseString(await (await api.app.handle(req('/topics/mtor-rapamycin/feed.xml'))).text())
    expect(feed.items.map((i) => i.title)).toEqual(['Rapamycin &amp; the mouse'])
  })

  test('conditional GET: the same ETag or a Last-Modified not older gets a 304 without a body', async () => {
    const first = await api.app.handle(req('/feed.xml'))
    const etag = first.headers.get('etag')!
    const lastModified = first.headers.get('last-modified')!
    expect(first.headers.get('cache-control')).toBe('public, max-age=300')
    expect(first.headers.get('vary')).toBeNull()
    expect(lastModified).toBe('Sat, 03 Oct 2026 08:00:00 GMT') // the newest story
    const byTag = await api.app.handle(req('/feed.xml', { headers: { 'if-none-match': etag } }))
    expect(byTag.status).toBe(304)
    expect(await byTag.text()).toBe('')
    const byDate = await api.app.handle(req('/feed.xml', { headers: { 'if-modified-since': lastModified } }))
    expect(byDate.status).toBe(304)
    const older = await api.app.handle(
      req('/feed.xml', { headers: { 'if-modified-since': 'Fri, 02 Oct 2026 08:00:00 GMT' } }),
    )
    expect(older.status).toBe(200)
    const otherTag = await api.app.handle(
      req('/feed.xml', { headers: { 'if-none-match': '"something-else"', 'if-modified-since': lastModified } }),
    )
    expect(otherTag.status).toBe(200) // If-None-Match wins over If-Modified-Since
  })

  test('pages announce their feeds', async () => {
    const home = await (await api.app.handle(req('/'))).text()
    expect(home).toContain(
      '<link rel="alternate" type="application/rss+xml" title="Geroscope: all stories" href="/feed.xml">',
    )
    const topic = await (await api.app.handle(req('/topics/mtor-rapamycin'))).text()
    expect(topic).toContain('href="https://geroscope.test/topics/mtor-rapamycin/feed.xml"')
  })
})
