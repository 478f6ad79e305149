/**
 * The console overview's charts in Chromium at 1280 and 390 px: one drawing of each chart shown, an
 * SVG labelled as an image by its title and description, whose bars and points announce the numbers
 * GET /api/overview/charts gives; the numbers table opens; no script error or CSP violation, no
 * serious axe-core violation; screenshots in artifacts/screenshots/console-overview-charts-*.png.
 */
import { describe, expect, test } from 'bun:test'
import { jobRuns, rssSources } from '../../src/db/schema'
import { haveBrowser, noteMissingBrowser, screenshot, useBrowser } from '../support/browser'
import { insertPapers, paperRow } from '../support/fixtures'
import { expectAccessible, open, signIn, useConsole, watchProblems } from './support'

noteMissingBrowser('console overview charts')

describe.skipIf(!haveBrowser)("the console overview's charts", () => {
  const world = useConsole(() => '<rss version="2.0"><channel><title>x</title></channel></rss>')
  const browser = useBrowser()

  for (const width of [1280, 390]) {
    test(`at ${width} px`, async () => {
      if (width === 1280) {
        const today = new Date()
        await insertPapers(world.database.db, [
          paperRow({ createdAt: today, judgedAt: today, relevanceConfidence: 0.2 }),
          paperRow({ createdAt: today, judgedAt: today }),
        ])
        await world.database.db.insert(jobRuns).values([
          { job: 'harvest', startedAt: today, outcome: 'ok' },
          { job: 'analyze', startedAt: today, outcome: 'failed' },
        ])
        await world.database.db
          .insert(rssSources)
          .values([{ name: 'A', url: 'https://a.test/feed', lastFetchedAt: today }])
      }
      const page = await browser.page(width)
      const problems = watchProblems(page)
      await signIn(page, world.base, await world.account('admin'))
      await open(page, `${world.base}/console`, 'Overview')
      await page.locator('figure.chart').nth(3).waitFor()
      const answer = await (await page.request.get(`${world.base}/api/overview/charts`)).json()
      const shown = await page.evaluate(() =>
        [...document.querySelectorAll('figure.chart')].map((figure) => {
          const svgs = [...figure.querySelectorAll(':scope > svg')].filter(
            (s) => getComputedStyle(s).display !== 'none',
          )
          const svg = svgs[0]
          return {
            id: figure.id,
            shown: svgs.length,
            role: svg.getAttribute('role'),
            name: (svg.getAttribute('aria-labelledby') ?? '')
              .split(' ')
              .map((id) => document.getElementById(id)?.textContent)
              .join(' | '),
            width: svg.getBoundingClientRect().width,
            marks: [...svg.querySelectorAll('[aria-roledescription="bar"], [aria-roledescription="point"]')].map((m) =>
              m.getAttribute('aria-label'),
            ),
          }
        }),
      )
      expect(shown.map((c) => c.id)).toEqual(answer.data.map((c: { id: string }) => c.id))
      for (const [i, chart] of shown.entries()) {
        const expected = answer.data[i] as {
          title: string
          description: string
          table: { head: string[]; rows: (string | number)[][] }
        }
        expect({ id: chart.id, shown: chart.shown, role: chart.role, name: chart.name }).toEqual({
          id: chart.id,
          shown: 1,
          role: 'img',
          name: `${expected.title} | ${expected.description}`,
        })
        expect(chart.width).toBeLessThanOrEqual(width)
        // Every number in the table is announced by a mark: the sum over marks equals the sum over the table.
        const marked = chart.marks.reduce(
          (n, label) => n + Number(/(?:Papers|Runs|Sources): (\d+)/.exec(label ?? '')?.[1] ?? 0),
          0,
        )
        const tabled = expected.table.rows.reduce(
          (n, r) => n + r.slice(1).reduce<number>((m, v) => m + Number(v), 0),
          0,
        )
        expect({ id: chart.id, marked }).toEqual({ id: chart.id, marked: tabled })
      }
      await page.locator('#chart-runs-daily summary').click()
      expect(await page.locator('#chart-runs-daily table caption').innerText()).toStartWith(
        'Job runs per day by outcome',
      )
      await expectAccessible(page, `overview-${width}`)
      if (width === 390)
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      await screenshot(page, `console-overview-charts-${width}`)
      expect(problems).toEqual([])
      await page.context().close()
    }, 120_000)
  }
})
