/**
 * Feed readers show an item's title, description and categories as HTML. Text that came
 * from upstream (a journal's name, a paper's title) or that our analysis wrote must reach the reader
 * as the literal text it is: markup in it is shown, never run.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import Parser from 'rss-parser'
import { insertPapers, insertStory, paperRow } from '../support/fixtures'
import { req, useTestApp } from '../support/app'

const api = useTestApp()

const IMG = '<img src=x onerror=alert(1)>'
const HEADLINE = `Rapamycin ${IMG} & <b>mice</b>`
const DEK = 'Mice lived <script>alert(2)</script> longer.'
const JOURNAL = `Aging ${IMG} Cell`
const TITLE = 'Rapamycin &amp; <i>lifespan</i>'
const STUDY_TYPE = '<svg onload=alert(3)>'

beforeAll(async () => {
  await insertPapers(api.database.db, [
    paperRow({
      id: 'MED-77',
      topic: 'mtor-rapamycin',
      title: TITLE,
      journal: JOURNAL,
      studyType: STUDY_TYPE,
      doi: '10.1000/x<y>',
    }),
  ])
  await insertStory(api.database.db, 'MED-77', { headline: HEADLINE, dek: DEK })
})

type Item = { title?: string; content?: string; categories?: unknown[] }
const parser = new Parser<object, Item>()

/** What a reader that treats the value as HTML shows: null when the value holds markup at all. */
function shownText(html: string): string | null {
  if (/<[a-z!/?]/i.test(html)) return null
  const characters: Record<string, string> = { lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' }
  return html.replace(/&(lt|gt|quot|#39|amp);/g, (_, e: string) => characters[e]!)
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : String((value as { _: unknown })._))

describe('feeds carry upstream text as text', () => {
  for (const path of ['/feed.xml', '/topics/mtor-rapamycin/feed.xml']) {
    test(`${path}: title, description (with the journal) and categories show the literal text, no live markup`, async () => {
      const response = await api.app.handle(req(path))
      expect(response.status).toBe(200)
      const feed = await parser.parseString(await response.text())
      const item = feed.items.find((i) => textOf(i.link) === 'https://geroscope.test/stories/MED-77')!
      expect(item).toBeDefined()
      expect(shownText(item.title!)).toBe(HEADLINE)
      expect(shownText(item.content!)).toBe(`${DEK} (Paper: ${TITLE}, ${JOURNAL}, doi:10.1000/x<y>.)`)
      expect((item.categories ?? []).map((c) => shownText(textOf(c)))).toContain(STUDY_TYPE)
    })
  }
})

describe('the feeds of a search carry paper text as text too', () => {
  test('/search/feed.xml: a paper title with markup and a hostile journal reach the reader as literal text', async () => {
    const response = await api.app.handle(req('/search/feed.xml?q=rapamycin'))
    expect(response.status).toBe(200)
    const feed = await parser.parseString(await response.text())
    const item = feed.items.find((i) => textOf(i.link) === 'https://geroscope.test/papers/MED-77')!
    expect(item).toBeDefined()
    expect(shownText(item.title!)).toBe(TITLE)
    const shown = shownText(item.content!)
    expect(shown).not.toBeNull()
    expect(shown!).toContain(JOURNAL)
    expect((item.categories ?? []).map((c) => shownText(textOf(c)))).toContain(STUDY_TYPE)
  })
})
