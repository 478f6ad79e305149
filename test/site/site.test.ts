/** The public pages, read as HTML: what each shows, what it withholds, and how it fails. */
import { beforeAll, describe, expect, test } from 'bun:test'
import { req, useTestApp } from '../support/app'
import { seedSite } from './corpus'

const api = useTestApp()
beforeAll(async () => {
  await seedSite(api.database.db)
})

/** The path of a topic page's "Older stories" or "Older papers" link, or null. */
function olderLink(html: string, list: 'stories' | 'papers'): string | null {
  const href = new RegExp(`<a rel="next" href="([^"]+)">Older ${list}</a>`).exec(html)?.[1]
  if (!href) return null
  const url = new URL(href.replaceAll('&amp;', '&'))
  return url.pathname + url.search
}

async function page(path: string) {
  const response = await api.app.handle(req(path))
  return { status: response.status, headers: response.headers, html: await response.text() }
}

describe('the home page', () => {
  test('shows the latest stories, every topic with its counts, a labelled search box and the feed', async () => {
    const { status, html, headers } = await page('/')
    expect(status).toBe(200)
    expect(headers.get('cache-control')).toBe('public, max-age=60')
    expect(headers.get('vary')).toBeNull()
    expect(html).toContain('Clearing old cells, part 22') // the newest
    expect(html).toContain('<label for="q">Search papers</label>')
    expect(html).toMatch(/Cellular senescence<\/a> <span class="meta">23 papers/)
    expect(html).toMatch(/mTOR and rapamycin<\/a> <span class="meta">1 paper,/)
    expect(html).toContain(
      '<link rel="alternate" type="application/rss+xml" title="Geroscope: all stories" href="/feed.xml">',
    )
    expect(html).toContain('<main id="main">')
    expect(html).toContain('href="#main">Skip to content')
  })
})

describe('a paper page', () => {
  test('shows the bibliography with DOI and date, the judgement in words, the story, linked entities and claims, with credit', async () => {
    const { html } = await page('/papers/MED-1')
    expect(html).toContain('Rapamycin &lt;b&gt;extends&lt;/b&gt; lifespan in mice')
    expect(html).toContain('<a href="https://doi.org/10.1000/rapa.1">10.1000/rapa.1</a>')
    expect(html).toContain('<time datetime="2026-09-30">')
    expect(html).toContain(
      '<dt>Relevance</dt><dd>core aging biology (2.6 of 3)</dd><dt>Study type</dt><dd>Animal study</dd>',
    )
    expect(html).toContain('Rapamycin &amp; the mouse')
    expect(html).toContain('<a href="/entities/intervention/rapamycin">Rapamycin</a>')
    expect(html).toContain('<a href="/entities/organism/NCBITaxon%3A10090">Mouse</a>')
    expect(html).toContain('<em>extends lifespan</em>')
    for (const credit of [
      'Judged by Geroscope',
      'Written by Geroscope',
      'Entities found by Geroscope',
      'Claims extracted by Geroscope',
    ])
      expect(html).toContain(credit)
    expect(html).toContain('An open abstract about rapamycin.')
    expect(html).toContain('Abstract by Smith A, Jones B, Lee C, et al., licensed cc by')
  })

  test('withholds an abstract its licence does not let us reuse, and says a paper is not judged yet', async () => {
    const { html } = await page('/papers/MED-2')
    expect(html).not.toContain('Secret non-commercial abstract')
    expect(html).toContain('its licence does not allow reuse')
    expect(html).toContain('has not been judged yet')
  })
})

describe('a topic page', () => {
  test('pages its stories 20 at a time, and lists recent papers and its feed', async () => {
    const first = await page('/topics/senescence')
    expect(first.html.match(/Clearing old cells, part/g)).toHaveLength(20)
    expect(first.html).toContain(
      '<link rel="alternate" type="application/rss+xml" title="Geroscope: Cellular senescence" href="https://geroscope.test/topics/senescence/feed.xml">',
    )
    const next = olderLink(first.html, 'stories')!
    const second = await page(next)
    expect(second.status).toBe(200)
    expect(second.html.match(/Clearing old cells, part/g)).toHaveLength(3)
    expect(second.html).toContain('Clearing old cells, part 0')
    expect(olderLink(second.html, 'stories')).toBeNull()
    expect(first.html).toContain('Recent papers')
  })

  test('pages its recent papers 10 at a time, each list keeping its own place', async () => {
    const recent = (html: string) =>
      [...html.slice(html.indexOf('id="recent"')).matchAll(/href="https:\/\/geroscope\.test\/papers\/([^"]+)"/g)].map(
        (m) => m[1],
      )
    const storiesPage2 = olderLink((await page('/topics/senescence')).html, 'stories')!
    const seen: string[] = []
    let path: string | null = storiesPage2
    const sizes: number[] = []
    while (path) {
      const { status, html } = await page(path)
      expect(status).toBe(200)
      expect(html.match(/Clearing old cells, part/g)).toHaveLength(3) // still the second page of stories
      sizes.push(recent(html).length)
      seen.push(...recent(html))
      path = olderLink(html, 'papers')
    }
    expect(sizes).toEqual([10, 10, 3])
    expect(new Set(seen).size).toBe(23)
  })

  test('a page position that is not one is an HTML 400', async () => {
    const { status, html, headers } = await page('/topics/senescence?after=yesterday')
    expect(status).toBe(400)
    expect(headers.get('content-type')).toContain('text/html')
    expect(html).toContain('after is not a page position')
    const papers = await page('/topics/senescence?papers_after=2026-01-01~nope')
    expect(papers.status).toBe(400)
    expect(papers.html).toContain('papers_after is not a page position')
  })
})

describe('an entity page', () => {
  test('says what it is, links its identifiers to their databases, lists its papers and claims', async () => {
    const { status, html } = await page('/entities/intervention/rapamycin')
    expect(status).toBe(200)
    expect(html).toContain('<h1>Rapamycin</h1>')
    expect(html).toContain('<a href="https://pubchem.ncbi.nlm.nih.gov/compound/5284616">5284616</a>')
    expect(html).toContain('href="https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:9168"')
    expect(html).toContain('<a href="https://geroscope.test/papers/MED-1">')
    expect(html).toContain('<em>extends lifespan</em>')
    expect(html).toContain('compiled by Geroscope')
  })

  test('an unknown entity is an HTML 404', async () => {
    const { status, html } = await page('/entities/gene/NOPE')
    expect(status).toBe(404)
    expect(html).toContain('Page not found')
  })
})

describe('the search page', () => {
  test('finds papers by words in titles and abstracts, and keeps the words in the box', async () => {
    const { status, html } = await page('/search?q=senolytic')
    expect(status).toBe(200)
    expect(html).toContain('Senolytic paper 3')
    expect(html).toContain('value="senolytic"')
  })

  test('an empty query shows the form; a query with nothing found says so; hostile text is escaped', async () => {
    expect((await page('/search')).html).toContain('<form class="search"')
    const none = await page(`/search?q=${encodeURIComponent('zebrafishx <script>alert(1)</script>')}`)
    expect(none.status).toBe(200)
    expect(none.html).toContain('No papers match')
    expect(none.html).not.toContain('<script>alert(1)')
  })

  test('an overlong query is an HTML 400', async () => {
    const { status, headers } = await page(`/search?q=${'a'.repeat(501)}`)
    expect(status).toBe(400)
    expect(headers.get('content-type')).toContain('text/html')
  })
})
