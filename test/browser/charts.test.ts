/**
 * The site's charts in Chromium at 1280 and 390 px: on each page with a chart the drawing shown is an
 * SVG labelled as an image (title and description), its bars announce the Data API's numbers, the
 * page passes axe-core with no serious violation and fits a phone; each is photographed
 * (artifacts/screenshots/chart-*.png). The numbers table opens and shows the same numbers.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { lastMonths } from '../../src/modules/site/charts/site-charts'
import type { RunningServer } from '../../src/platform/serve'
import { haveBrowser, noteMissingBrowser, screenshot, seriousViolations, useBrowser } from '../support/browser'
import { serveAtItsOrigin } from '../support/app'
import { freshDatabase, type TestDatabase } from '../support/database'
import { createTestKey } from '../support/fixtures'
import { seedCharts } from '../site/chart-corpus'

noteMissingBrowser('site charts')

type Expected = Record<string, { label: string; value: number }[]> // chart id: the bars it must show, as "key" and number

/** The visible drawing of each chart on the page: its accessible name parts and its bars' labels. */
async function visibleCharts(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('figure.chart')].map((figure) => {
      const svg = [...figure.querySelectorAll('svg')].find((s) => getComputedStyle(s).display !== 'none')!
      const ids = (svg.getAttribute('aria-labelledby') ?? '').split(' ')
      const box = svg.getBoundingClientRect()
      return {
        id: figure.id,
        role: svg.getAttribute('role'),
        name: ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' | '),
        shown: [...figure.querySelectorAll('svg')].filter((s) => getComputedStyle(s).display !== 'none').length,
        width: box.width,
        bars: [...svg.querySelectorAll('[aria-roledescription="bar"]')].map((b) => b.getAttribute('aria-label') ?? ''),
      }
    }),
  )
}

describe.skipIf(!haveBrowser)("the site's charts in Chromium", () => {
  const browser = useBrowser()
  let database: TestDatabase
  let server: RunningServer
  let origin = ''
  let key = ''
  const months = lastMonths(new Date())
  const api = async (path: string) =>
    await (await fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${key}` } })).json()
  const grouped = async (path: string) =>
    new Map<string, number>((await api(path)).group_by.map((g: { key: string; count: number }) => [g.key, g.count]))

  beforeAll(async () => {
    database = await freshDatabase()
    await seedCharts(database.db)
    key = (await createTestKey(database.db, { tier: 'pro' })).key
    ;({ server, origin } = await serveAtItsOrigin(database))
  })
  afterAll(async () => {
    await server?.stop()
    await database?.close()
  })

  /** What each page's charts must show, from the Data API: "Field: value" labels with their numbers. */
  async function expected(): Promise<Record<string, Expected>> {
    const senescence = await grouped(
      `/api/v1/papers?since=${months[0]}-01&topic=senescence&group_by=indexed_month&limit=1`,
    )
    const clocks = await grouped(
      `/api/v1/papers?since=${months[0]}-01&topic=epigenetic-clocks&group_by=indexed_month&limit=1`,
    )
    const evidence = (await api('/api/v1/evidence?subject=CDKN2A&object=senescence')).data.groups as {
      organism: string | null
      direction: string | null
      claim_count: number
    }[]
    const directionBars = evidence.map((g) => ({
      label: `Organism: ${g.organism ?? 'Not stated'}; Direction: ${g.direction?.replace('_', ' ') ?? 'not stated'}`,
      value: g.claim_count,
    }))
    return {
      '/': {
        'chart-monthly': months.flatMap((m) => [
          { label: `Month indexed: ${m}; Topic: Cellular senescence`, value: senescence.get(m) ?? 0 },
          { label: `Month indexed: ${m}; Topic: Epigenetic clocks`, value: clocks.get(m) ?? 0 },
        ]),
      },
      '/topics/senescence': {
        'chart-monthly': months.map((m) => ({ label: `Month indexed: ${m}`, value: senescence.get(m) ?? 0 })),
      },
      '/entities/gene/CDKN2A': { 'chart-directions': directionBars }, // this question holds all of the gene's claims
      '/evidence?subject=CDKN2A&object=senescence': { 'chart-directions': directionBars },
    }
  }

  /** A label's "Field: value" parts in one order, whatever order Vega wrote them in. */
  const sorted = (label: string) => label.split('; ').sort().join('; ')
  /** A bar's label without its number ("Papers: 3" or "Claims: 2"), and the number. */
  const split = (label: string) => {
    const parts = label.split('; ')
    const number = parts.find((p) => /^(Papers|Claims): /.test(p))!
    return { label: sorted(parts.filter((p) => p !== number).join('; ')), value: Number(number.split(': ')[1]) }
  }

  test("each chart is a labelled SVG showing the API's numbers, with no serious axe violation, at 1280 and 390 px", async () => {
    const want = await expected()
    const problems: Record<string, string[]> = {}
    for (const width of [1280, 390]) {
      const page = await browser.page(width)
      for (const [path, charts] of Object.entries(want)) {
        expect((await page.goto(`${origin}${path}`))?.status()).toBe(200)
        const found = await visibleCharts(page)
        expect(found.length).toBeGreaterThan(0)
        for (const chart of found) {
          expect({ path, id: chart.id, role: chart.role, shown: chart.shown }).toEqual({
            path,
            id: chart.id,
            role: 'img',
            shown: 1,
          })
          expect(chart.name).toMatch(/^.+ \| Bars of .+/) // a title, then the text alternative
          expect(chart.width).toBeLessThanOrEqual(width)
          expect(chart.width).toBeGreaterThan(width === 390 ? 300 : 600)
        }
        for (const [id, bars] of Object.entries(charts)) {
          const drawn = new Map(
            found
              .find((c) => c.id === id)!
              .bars.map(split)
              .map((b) => [b.label, b.value]),
          )
          for (const bar of bars)
            expect({ path, id, ...bar }).toEqual({
              path,
              id,
              label: bar.label,
              value: drawn.get(sorted(bar.label)) ?? 0,
            })
        }
        const violations = (await seriousViolations(page)).map(
          (v) =>
            `${v.id} (${v.impact}): ${v.help} at ${v.nodes
              .slice(0, 3)
              .map((n) => n.target.join(' '))
              .join(', ')}`,
        )
        if (violations.length) problems[`${path}@${width}`] = violations
        if (width === 390) {
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
          expect({ path, overflow }).toEqual({ path, overflow: 0 })
        }
        await screenshot(page, `chart-${path === '/' ? 'home' : path.split(/[/?]/)[1]}-${width}`)
      }
      await page.context().close()
    }
    expect(problems).toEqual({})
  }, 240_000)

  test('the numbers under a chart open as a table with the same numbers as its bars', async () => {
    const page = await browser.page(390)
    await page.goto(`${origin}/topics/senescence`)
    const figure = page.locator('#chart-monthly')
    await figure.locator('summary').click()
    const rows = await figure
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)))
    const bars = (await visibleCharts(page)).find((c) => c.id === 'chart-monthly')!.bars.map(split)
    expect(rows).toEqual(bars.map((b) => [b.label.replace('Month indexed: ', ''), String(b.value)]))
    expect(rows).toHaveLength(24)
    await screenshot(page, 'chart-topic-table-390')
    await page.context().close()
  }, 60_000)
})
