import { beforeAll, describe, expect, test } from 'bun:test'
import Parser from 'rss-parser'
import { req, useTestApp } from '../support/app'
import { bearer, insertPapers, insertStory, paperRow } from '../support/fixtures'

const api = useTestApp()

beforeAll(async () => {
  await insertPapers(api.database.db, [
    paperRow({ id: 'MED-1', topic: 'senescence', title: 'Senolytics <script>alert(1)</script> in mice' }),
    paperRow({
      id: 'MED-2',
      topic: 'senescence',
      abstractLicense: 'cc by-nc',
      abstract: 'Secret non-commercial abstract.',
    }),
  ])
  await insertStory(api.database.db, 'MED-1', { headline: 'Clearing old cells & more' })
})

/** Turns an absolute URL from the API into a request on the api.app under test. */
const follow = (url: string) => api.app.handle(req(new URL(url).pathname))

describe("site pages behind the API's URLs", () => {
  test('site_url, story url, topic site_url and feed_url all resolve without a key', async () => {
    const paper = (await (await api.app.handle(req('/api/v1/papers/MED-1', bearer(api.key)))).json()).data
    const paperPage = await follow(paper.site_url)
    expect(paperPage.status).toBe(200)
    expect(paperPage.headers.get('content-type')).toContain('text/html')
    const html = await paperPage.text()
    expect(html).toContain('Senolytics &lt;script&gt;alert(1)&lt;/script&gt; in mice')
    expect(html).not.toContain('<script>alert(1)')
    const storyPage = await follow(paper.story.url)
    expect(storyPage.status).toBe(200)
    expect(await storyPage.text()).toContain('Clearing old cells &amp; more')
    expect((await follow('https://geroscope.test/topics/senescence')).status).toBe(200)
  })

  test("a topic feed is valid RSS with the topic's stories", async () => {
    const response = await follow('https://geroscope.test/topics/senescence/feed.xml')
    expect(response.status).toBe(200)
    const feed = await new Parser().parseString(await response.text())
    expect(feed.items.map((i) => i.title)).toEqual(['Clearing old cells &amp; more']) // the reader's HTML for "&"
    expect(feed.items[0].link).toBe('https://geroscope.test/stories/MED-1')
  })

  test('a paper page withholds an abstract whose licence does not allow reuse', async () => {
    const html = await (await follow('https://geroscope.test/papers/MED-2')).text()
    expect(html).not.toContain('Secret non-commercial abstract')
  })

  test('unknown papers, stories and topics are a 404 page', async () => {
    for (const path of ['/papers/MED-999', '/stories/MED-2', '/topics/aging', '/topics/aging/feed.xml']) {
      const response = await api.app.handle(req(path))
      expect(response.status).toBe(404)
      expect(response.headers.get('content-type')).toContain('text/html')
      expect(await response.text()).toContain('Page not found')
    }
  })
})
