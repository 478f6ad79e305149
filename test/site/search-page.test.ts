/**
 * The site's search page: each hit with our judgement as a badge, the story's headline, and a snippet
 * of an open abstract with the words found marked; the Data API's paper filters as a form and as
 * links, kept by the links and by the search's feed; a bad filter is a 400 naming it.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { parseRssFeed } from 'feedsmith'
import { snippetHtml, searchedWords } from '../../src/modules/site/search-hits'
import { req, useTestApp } from '../support/app'
import { seedCharts } from './chart-corpus'
import { seedSite } from './corpus'

const api = useTestApp()
beforeAll(async () => {
  await seedSite(api.database.db)
  await seedCharts(api.database.db)
})

const page = async (path: string) => {
  const response = await api.app.handle(req(path))
  return { status: response.status, html: await response.text() }
}
/** The hits of a results page: each <li> of the list. */
const hitsOf = (html: string) =>
  [...(html.split('<ol class="items hits">')[1] ?? '').split('</ol>')[0].matchAll(/<li>([\s\S]*?)<\/li>/g)].map(
    (m) => m[1],
  )

/** The chart papers' numbers ("Chart paper 12 on …") among hits. */
const numbersOf = (hits: string[]) => hits.flatMap((h) => /Chart paper (\d+) /.exec(h)?.[1] ?? []).map(Number)

describe('search hits', () => {
  test('a hit shows our judgement, the story headline and a snippet with the words found marked', async () => {
    const { html } = await page('/search?q=senolytic%20paper%203')
    const hit = hitsOf(html).find((h) => h.includes('>Senolytic paper 3</a>'))!
    expect(hit).toContain('<span class="badge">core aging biology · animal study</span>')
    expect(hit).toContain('Our story: <a href="https://geroscope.test/stories/MED-103">Clearing old cells, part 3</a>')
    expect(hit).toContain(
      '<p class="snippet">Rapamycin extended median lifespan by 12% in male mice (<mark>paper</mark>',
    )
  })

  test('an abstract its licence keeps closed gives no snippet; an unjudged paper says so', async () => {
    const hit = hitsOf((await page('/search?q=secret')).html).find((h) => h.includes('/papers/MED-2'))!
    expect(hit).toContain('<span class="badge">not judged yet</span>')
    expect(hit).not.toContain('snippet')
    expect(hit).not.toContain('Secret')
  })

  test('snippets: phrases and word endings marked, excluded words and OR not, text escaped', () => {
    expect(searchedWords('"old cells" OR senolytic -review')).toEqual(['old cells', 'senolytic'])
    expect(snippetHtml('Senolytics clear <old  cells> & more', ['old cells', 'senolytic'])).toBe(
      '<mark>Senolytics</mark> clear &lt;<mark>old  cells</mark>&gt; &amp; more',
    )
    const long = `${'word '.repeat(100)}target ${'word '.repeat(100)}`
    const cut = snippetHtml(long, ['target'])
    expect(cut).toStartWith('… ')
    expect(cut).toEndWith(' …')
    expect(cut).toContain('<mark>target</mark>')
    expect(snippetHtml('nothing here', ['target'])).toBe('')
  })
})

describe('search filters', () => {
  test('a topic narrows the hits; the links set one filter and keep the others; the form shows the values', async () => {
    const { html } = await page('/search?q=chart&topic=senescence&preprint=false')
    const narrowed = numbersOf(hitsOf(html))
    expect(narrowed.length).toBe(20) // of the 20 chart papers on senescence (every third)
    expect(narrowed.filter((i) => i % 3 !== 0)).toEqual([])
    expect(html).toContain('<strong aria-current="true">Cellular senescence</strong>')
    expect(html).toContain('<a href="/search?q=chart&amp;topic=mitochondria&amp;preprint=false">Mitochondria</a>')
    expect(html).toContain('<a href="/search?q=chart&amp;preprint=false">Any</a>') // removes the topic
    expect(html).toContain(
      '<a href="/search?q=chart&amp;topic=senescence&amp;preprint=false&amp;study_type=review">Review</a>',
    )
    expect(html).toContain('<option value="senescence" selected>Cellular senescence</option>')
    expect(html).toContain('<details class="filters" open>')
  })

  test('the empty fields a form sends mean "any"', async () => {
    const { status, html } = await page('/search?q=chart&topic=&study_type=&min_relevance=&preprint=&since=&until=')
    expect(status).toBe(200)
    expect(hitsOf(html).length).toBe(hitsOf((await page('/search?q=chart')).html).length)
  })

  test('minimum relevance and dates filter as the Data API does', async () => {
    const judgedAging = hitsOf((await page('/search?q=chart&min_relevance=2')).html)
    expect(numbersOf(judgedAging).filter((i) => i % 5 === 4)).toEqual([]) // every fifth is tangential (relevance 1)
    expect(judgedAging.every((h) => h.includes('<span class="badge">core aging biology'))).toBe(true)
    // All 60 chart papers, newest first, in the feed: 50 of them; 48 are about aging biology.
    const items = async (query: string) =>
      parseRssFeed(await (await api.app.handle(req(`/search/feed.xml?${query}`))).text()).items ?? []
    expect((await items('q=chart')).length).toBe(50)
    expect((await items('q=chart&min_relevance=2')).length).toBe(48)
    expect((await page('/search?q=chart&since=2099-01-01')).html).toContain(
      'No papers match <strong>chart</strong> with these filters.',
    )
  })

  test.each([
    ['/search?q=chart&topic=ageing', 'topic'],
    ['/search?q=chart&min_relevance=4', 'min_relevance'],
    ['/search?q=chart&since=yesterday', 'since'],
    ['/search?q=chart&preprint=maybe', 'preprint'],
    ['/search?q=chart&page=2', 'unknown parameter'],
  ])('%s is a 400 naming the parameter', async (path, name) => {
    const { status, html } = await page(path)
    expect(status).toBe(400)
    expect(html).toContain(name)
  })

  test('a shared link with analytics tags (utm_source, fbclid) answers as the same search without them', async () => {
    const tagged = await page('/search?q=chart&topic=senescence&utm_source=newsletter&utm_medium=email&fbclid=x1')
    expect(tagged.status).toBe(200)
    expect(tagged.html).toBe((await page('/search?q=chart&topic=senescence')).html)
  })

  test('the feed of a filtered search keeps its filters, and lists only what they let through', async () => {
    const { html } = await page('/search?q=chart&topic=senescence')
    expect(html).toContain('href="https://geroscope.test/search/feed.xml?q=chart&amp;topic=senescence"')
    const feed = parseRssFeed(await (await api.app.handle(req('/search/feed.xml?q=chart&topic=senescence'))).text())
    expect(feed.items!.length).toBe(20)
    expect(feed.items!.every((i) => i.categories?.[0]?.name === 'Cellular senescence')).toBe(true)
  })
})
