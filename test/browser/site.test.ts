/**
 * The public site in Chromium: every page passes axe-core with no serious or critical violation, and
 * is photographed at 1280 and 390 px (artifacts/screenshots/, kept by CI); at 390 px nothing is
 * wider than the screen. A paper page opened from an API site_url, and a topic feed followed from its page.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Parser from 'rss-parser'
import type { Page } from 'playwright-core'
import type { RunningServer } from '../../src/platform/serve'
import { haveBrowser, noteMissingBrowser, screenshot, seriousViolations, useBrowser } from '../support/browser'
import { serveAtItsOrigin } from '../support/app'
import { freshDatabase, type TestDatabase } from '../support/database'
import { createTestKey } from '../support/fixtures'
import { seedSite } from '../site/corpus'

noteMissingBrowser('public site')

const PAGES: [name: string, path: string][] = [
  ['home', '/'],
  ['paper', '/papers/MED-1'],
  ['paper-closed', '/papers/MED-2'],
  ['story', '/stories/MED-1'],
  ['topic', '/topics/senescence'],
  ['entity', '/entities/intervention/rapamycin'],
  ['search', '/search?q=senolytic'],
  ['admin-docs', '/api/docs'],
  ['search-filtered', '/search?q=rapamycin&topic=mtor-rapamycin&preprint=false'],
  ['index', '/topics'],
  ['not-found', '/papers/MED-999'],
  ['api-docs', '/api/v1/docs'],
]

/** The serious and critical violations of every axe-core rule, one line each. */
async function seriousProblems(page: Page): Promise<string[]> {
  return (await seriousViolations(page)).map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} at ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(', ')}`,
  )
}

describe.skipIf(!haveBrowser)('the public site in Chromium', () => {
  const browser = useBrowser()
  let database: TestDatabase
  let server: RunningServer
  let origin = ''
  let key = ''

  beforeAll(async () => {
    database = await freshDatabase()
    await seedSite(database.db)
    key = (await createTestKey(database.db, { tier: 'pro' })).key
    ;({ server, origin } = await serveAtItsOrigin(database))
  })
  afterAll(async () => {
    await server?.stop()
    await database?.close()
  })

  test('every page: no serious accessibility violation, fits 390 px, screenshots at 1280 and 390 px', async () => {
    const problems: Record<string, string[]> = {}
    for (const width of [1280, 390]) {
      const page = await browser.page(width)
      for (const [name, path] of PAGES) {
        const response = await page.goto(`${origin}${path}`)
        expect({ path, status: response?.status() }).toEqual({ path, status: name === 'not-found' ? 404 : 200 })
        if (name.endsWith('docs')) await page.locator('.opblock').first().waitFor({ timeout: 20_000 })
        const found = await seriousProblems(page)
        if (found.length) problems[`${name}@${width}`] = found
        if (width === 390 && !name.endsWith('docs')) {
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
          expect({ path, overflow }).toEqual({ path, overflow: 0 })
        }
        await screenshot(page, `site-${name}-${width}`)
      }
      await page.context().close()
    }
    expect(problems).toEqual({})
  }, 180_000)

  test('a paper page opened from an API site_url, and a topic feed followed from its page', async () => {
    const answer = await (
      await fetch(`${origin}/api/v1/papers/MED-1`, { headers: { authorization: `Bearer ${key}` } })
    ).json()
    const page = await browser.page(1280)
    expect((await page.goto(answer.data.site_url))?.status()).toBe(200)
    expect(await page.locator('h1').innerText()).toBe('Rapamycin <b>extends</b> lifespan in mice')
    await page.goto(`${origin}/topics/mtor-rapamycin`)
    const feedUrl = await page
      .locator('link[rel="alternate"][title="Geroscope: mTOR and rapamycin"]')
      .getAttribute('href')
    const feed = await new Parser().parseString(await (await fetch(feedUrl!)).text())
    expect(feed.items.map((i) => i.title)).toEqual(['Rapamycin &amp; the mouse']) // the reader's HTML for "&"
    await page.context().close()
  }, 60_000)
})
