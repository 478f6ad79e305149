/**
 * What crawlers and browsers ask for: robots.txt, the favicon, a sitemap index whose files list every
 * topic, story, entity with papers and paper (in parts by month indexed), each URL a page that answers;
 * and the index of topics and most-studied entities, linked from home.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { XMLParser } from 'fast-xml-parser'
import { executeRows } from '../../src/db/client'
import { TOPIC_INFO } from '../../src/taxonomy'
import { req, useTestApp } from '../support/app'
import { insertEntity, linkEntity } from '../support/fixtures'
import { seedCharts } from './chart-corpus'
import { seedSite } from './corpus'

const api = useTestApp()
beforeAll(async () => {
  await seedSite(api.database.db)
  await seedCharts(api.database.db)
  const nad = await insertEntity(api.database.db, 'intervention', 'nmn', 'NMN')
  await linkEntity(api.database.db, 'MED-7030', '2026-10-02', nad.id, 'intervention')
  // paper_count is kept by the minute refresh; set here as it would set it.
  await executeRows(
    api.database.db,
    sql`update entities e set paper_count = (select count(distinct paper_id) from paper_entities pe where pe.entity_id = e.id)`,
  )
})

const parser = new XMLParser({ isArray: (name) => ['url', 'sitemap'].includes(name) })
const get = (path: string) => api.app.handle(req(path))
const path = (url: string) => new URL(url).pathname + new URL(url).search

describe('robots, favicon and sitemap', () => {
  test('robots.txt keeps crawlers to the public pages and names the sitemap', async () => {
    const response = await get('/robots.txt')
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    const text = await response.text()
    expect(text).toContain('Disallow: /api/\nAllow: /api/v1/docs\nDisallow: /console\nDisallow: /search\n')
    expect(text).toContain('Sitemap: https://geroscope.test/sitemap.xml')
  })

  test('the favicon is an SVG every page links, and /favicon.ico leads to it', async () => {
    const icon = await get('/favicon.svg')
    expect(icon.headers.get('content-type')).toBe('image/svg+xml')
    expect(await icon.text()).toStartWith('<svg xmlns="http://www.w3.org/2000/svg"')
    expect(
      (await api.app.handle(req('/favicon.svg', { headers: { 'if-none-match': icon.headers.get('etag')! } }))).status,
    ).toBe(304)
    const ico = await get('/favicon.ico')
    expect([ico.status, ico.headers.get('location')]).toEqual([301, '/favicon.svg'])
    expect(await (await get('/papers/MED-1')).text()).toContain(
      '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    )
  })

  test('the sitemap lists every topic, story, entity with papers and paper, and each URL answers 200', async () => {
    const index = parser.parse(await (await get('/sitemap.xml')).text())
    const files: string[] = index.sitemapindex.sitemap.map((s: { loc: string }) => s.loc)
    expect(files.slice(0, 3)).toEqual(
      ['pages', 'stories', 'entities'].map((f) => `https://geroscope.test/sitemaps/${f}.xml`),
    )
    const urls: string[] = []
    for (const file of files) {
      const response = await get(path(file))
      expect({ file, status: response.status, type: response.headers.get('content-type') }).toEqual({
        file,
        status: 200,
        type: 'application/xml; charset=utf-8',
      })
      urls.push(...parser.parse(await response.text()).urlset.url.map((u: { loc: string }) => u.loc))
    }
    const [{ n: papers }] = await executeRows<{ n: number }>(
      api.database.db,
      sql`select count(*)::int as n from papers`,
    )
    const [{ n: stories }] = await executeRows<{ n: number }>(
      api.database.db,
      sql`select count(*)::int as n from stories`,
    )
    expect(urls.filter((u) => u.includes('/papers/'))).toHaveLength(papers)
    expect(urls.filter((u) => u.includes('/stories/'))).toHaveLength(stories)
    expect(urls.filter((u) => u.includes('/entities/')).sort()).toEqual([
      'https://geroscope.test/entities/gene/CDKN2A',
      'https://geroscope.test/entities/intervention/nmn',
      'https://geroscope.test/entities/intervention/rapamycin',
      'https://geroscope.test/entities/organism/NCBITaxon%3A10090',
    ])
    for (const t of TOPIC_INFO) expect(urls).toContain(`https://geroscope.test/topics/${t.slug}`)
    expect(new Set(urls).size).toBe(urls.length)
    for (const url of urls.filter((_, i) => i % 7 === 0))
      expect({ url, status: (await get(path(url))).status }).toEqual({ url, status: 200 })
  })

  test.each(['nope.xml', 'papers-2026-13-1.xml', 'papers-1999-01-1.xml', 'papers-2026-10-0.xml'])(
    '/sitemaps/%s is a 404',
    async (file) => {
      expect((await get(`/sitemaps/${file}`)).status).toBe(404)
    },
  )
})

describe('the index of topics and most-studied entities', () => {
  test('lists every topic and the entities, most papers first, and home links to both', async () => {
    const html = await (await get('/topics')).text()
    for (const t of TOPIC_INFO) expect(html).toContain(`<a href="https://geroscope.test/topics/${t.slug}">`)
    const order = ['CDKN2A', 'Rapamycin', 'NMN'].map((name) => html.indexOf(`>${name}</a>`))
    expect(order.every((i) => i > 0)).toBe(true)
    expect(html).toContain('<a href="/entities/gene/CDKN2A">CDKN2A</a> <span class="meta">gene · 20 papers</span>')
    const home = await (await get('/')).text()
    expect(home).toContain('<a href="/entities/gene/CDKN2A">CDKN2A</a>')
    expect(home).toContain('<a href="/topics">All topics and most-studied entities</a>')
  })
})
