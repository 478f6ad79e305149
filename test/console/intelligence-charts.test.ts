/**
 * Charts of contradictions and gaps in Chromium at 1280 and 390 px, over hand-made claims and papers
 * whose contradictions and declining-attention gaps are known (as test/intelligence/gaps.test.ts):
 * - the console's contradictions screen: one chart of the page's groups, its bars' claims for an
 *   increase and for a decrease equal to GET /api/intelligence/contradictions's;
 * - the console's gaps screen: a sparkline on each declining-attention gap, its points' papers equal
 *   to the gap's series in GET /api/intelligence/gaps;
 * - the site's topic and hallmark pages: the same sparkline, with the same numbers.
 * Each drawing shown is an SVG labelled as an image by its title and description, the numbers table
 * opens, axe-core finds no serious violation, nothing scrolls sideways at 390 px, and each screen
 * is photographed (artifacts/screenshots/intelligence-chart-*.png).
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { computeIntelligence } from '../../src/pipeline/intelligence/refresh'
import { haveBrowser, noteMissingBrowser, screenshot, seriousViolations, useBrowser } from '../support/browser'
import { insertEntity, insertPapers, linkEntity, paperRow } from '../support/fixtures'
import { NOW, seedKnowledge } from '../intelligence/fixtures'
import { expectAccessible, open, signIn, useConsole, watchProblems } from './support'

noteMissingBrowser('contradiction and gap charts')

type Series = { period_days: number; recent_periods: number; periods: { start: string; end: string; papers: number }[] }
type Gap = { id: string; kind: string; subject: { key: string; label: string } | null; series: Series | null }
type Group = {
  id: string
  subject: { label: string }
  object: { label: string }
  claims: { increase: number; decrease: number }
}

const day = (offset: number) =>
  new Date(Date.parse('2026-08-01T00:00:00Z') + offset * 86_400_000).toISOString().slice(0, 10)

/** Each chart in the page (or inside `within`): the drawing shown, its accessible name, its marks' labels. */
async function chartsShown(page: Page, within = 'body') {
  return page.evaluate(
    (scope) =>
      [...document.querySelectorAll(`${scope} figure.chart`)].map((figure) => {
        const shown = [...figure.querySelectorAll(':scope > svg')].filter((s) => getComputedStyle(s).display !== 'none')
        const svg = shown[0]!
        return {
          id: figure.id,
          shown: shown.length,
          role: svg.getAttribute('role'),
          name: (svg.getAttribute('aria-labelledby') ?? '')
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent)
            .join(' | '),
          width: svg.getBoundingClientRect().width,
          marks: [...svg.querySelectorAll('[aria-roledescription="bar"], [aria-roledescription="point"]')].map(
            (m) => m.getAttribute('aria-label') ?? '',
          ),
        }
      }),
    within,
  )
}

/** "Field: value; Field: value" as an object. */
const fields = (label: string) =>
  Object.fromEntries(label.split('; ').map((kv) => [kv.slice(0, kv.indexOf(': ')), kv.slice(kv.indexOf(': ') + 2)]))

describe.skipIf(!haveBrowser)('charts of contradictions and gaps', () => {
  const world = useConsole(() => '<rss version="2.0"><channel><title>x</title></channel></rss>')
  const browser = useBrowser()

  beforeAll(async () => {
    const db = world.database.db
    await seedKnowledge(db)
    // NAD+ and sirtuins: 20 papers over the first 56 days, none after; senescence: one every 3 days to the end.
    const fading = Array.from({ length: 20 }, (_, i) =>
      paperRow({ id: `MED-${500 + i}`, topic: 'nad-sirtuins', indexedDate: day(i * 3), studyType: 'review' }),
    )
    const steady = Array.from({ length: 30 }, (_, i) =>
      paperRow({ id: `MED-${600 + i}`, topic: 'senescence', indexedDate: day(i * 3 + 2), studyType: 'review' }),
    )
    await insertPapers(db, [...fading, ...steady])
    const hallmark = await insertEntity(db, 'hallmark', 'cellular-senescence', 'cellular senescence')
    for (const p of fading) await linkEntity(db, p.id, p.indexedDate, hallmark.id, 'context')
    await computeIntelligence(world.database, { now: NOW })
  })

  for (const width of [1280, 390]) {
    test(`at ${width} px: labelled SVGs whose numbers are the API's`, async () => {
      const page = await browser.page(width)
      const problems = watchProblems(page)
      await signIn(page, world.base, await world.account('admin'))
      const api = async (path: string) => {
        const response = await page.request.get(`${world.base}${path}`)
        expect({ path, status: response.status() }).toEqual({ path, status: 200 })
        return response.json()
      }
      const fits = async (what: string) => {
        if (width === 390)
          expect({ what, width: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({
            what,
            width: 390,
          })
      }

      // Contradictions: one chart of the page's groups.
      await open(page, `${world.base}/console/contradictions`, 'Contradictions')
      await page.locator('#chart-contradictions').waitFor()
      const groups = (await api('/api/intelligence/contradictions?limit=20')).data as Group[]
      const answer = (await api('/api/intelligence/charts/contradictions?limit=20')).data
      expect(groups.length).toBeGreaterThanOrEqual(3)
      const [contradictions] = await chartsShown(page)
      expect({ ...contradictions, marks: undefined, width: undefined }).toEqual({
        id: 'chart-contradictions',
        shown: 1,
        role: 'img',
        name: `${answer.title} | ${answer.description}`,
        marks: undefined,
        width: undefined,
      })
      expect(contradictions!.width).toBeLessThanOrEqual(width)
      const bars = contradictions!.marks.map(fields)
      for (const g of groups) {
        const row = `${g.subject.label} → ${g.object.label}`
        const claims = (direction: string) =>
          Number(bars.find((b) => b['Subject → object'] === row && b.Direction === direction)?.Claims ?? 0)
        expect({ row, increase: claims('increase'), decrease: claims('decrease') }).toEqual({ row, ...g.claims })
      }
      expect(bars.reduce((n, b) => n + Number(b.Claims), 0)).toBe(
        groups.reduce((n, g) => n + g.claims.increase + g.claims.decrease, 0),
      )
      await page.locator('#chart-contradictions summary').click()
      const rows = await page
        .locator('#chart-contradictions tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)))
      expect(rows).toEqual(
        groups.map((g) => [
          `${g.subject.label} → ${g.object.label}`,
          String(g.claims.increase),
          String(g.claims.decrease),
        ]),
      )
      await expectAccessible(page, `contradictions-${width}`)
      await fits('contradictions')
      await screenshot(page, `intelligence-chart-contradictions-${width}`)

      // Gaps: a sparkline on each declining-attention gap, none on the others.
      await open(page, `${world.base}/console/gaps`, 'Knowledge gaps')
      const gaps = (await api('/api/intelligence/gaps?limit=20')).data as Gap[]
      const declining = gaps.filter((g) => g.kind === 'declining_attention')
      expect(declining.map((g) => g.subject!.key).sort()).toEqual([
        'hallmark:cellular-senescence',
        'topic:nad-sirtuins',
      ])
      await page.locator(`#chart-gap-${declining[0]!.id}`).waitFor()
      const sparklines = (await api('/api/intelligence/charts/gaps?limit=20')).data as {
        gap_id: string
        id: string
        title: string
        description: string
      }[]
      const shown = await chartsShown(page)
      expect(shown.map((c) => c.id)).toEqual(declining.map((g) => `chart-gap-${g.id}`))
      for (const gap of declining) {
        const chart = shown.find((c) => c.id === `chart-gap-${gap.id}`)!
        const drawn = sparklines.find((c) => c.gap_id === gap.id)!
        expect({ shown: chart.shown, role: chart.role, name: chart.name }).toEqual({
          shown: 1,
          role: 'img',
          name: `${drawn.title} | ${drawn.description}`,
        })
        expect(chart.name).toStartWith(`${gap.subject!.label}: little recent work; papers per 10 days`)
        expect(chart.marks.map(fields).map((m) => [m.Period, Number(m.Papers)])).toEqual(
          gap.series!.periods.map((p) => [`${p.start} to ${p.end}`, p.papers]),
        )
        expect(chart.width).toBeLessThanOrEqual(20 * 16 + 1) // small: at most 20rem
      }
      await page.locator(`#chart-gap-${declining[0]!.id} summary`).click()
      await expectAccessible(page, `gaps-${width}`)
      await fits('gaps')
      await screenshot(page, `intelligence-chart-gaps-${width}`)

      // The site's topic and hallmark pages draw the same series.
      for (const [path, key] of [
        ['/topics/nad-sirtuins', 'topic:nad-sirtuins'],
        ['/entities/hallmark/cellular-senescence', 'hallmark:cellular-senescence'],
      ]) {
        expect((await page.goto(`${world.base}${path}`))?.status()).toBe(200)
        const gap = declining.find((g) => g.subject!.key === key)!
        const chart = (await chartsShown(page)).find((c) => c.id === 'chart-attention')!
        expect({ path, shown: chart.shown, role: chart.role }).toEqual({ path, shown: 1, role: 'img' })
        expect(chart.name).toStartWith(
          `${gap.subject!.label}: little recent work; papers per 10 days, ${gap.series!.periods[0]!.start} to ${gap.series!.periods.at(-1)!.end} | A line of papers`,
        )
        expect(chart.marks.map(fields).map((m) => [m.Period, Number(m.Papers), m.Window])).toEqual(
          gap.series!.periods.map((p, i) => [
            `${p.start} to ${p.end}`,
            p.papers,
            i >= gap.series!.periods.length - 3 ? 'last 30 days' : 'earlier',
          ]),
        )
        await page.locator('#chart-attention summary').click()
        const table = await page
          .locator('#chart-attention tbody tr')
          .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)))
        expect(table.map((r) => [r[0], r[1], Number(r[2])])).toEqual(
          gap.series!.periods.map((p) => [p.start, p.end, p.papers]),
        )
        expect({ path, serious: await seriousViolations(page) }).toEqual({ path, serious: [] })
        await fits(path)
        await screenshot(page, `intelligence-chart-${path.split('/')[1]}-${width}`)
      }
      expect(problems).toEqual([])
      await page.context().close()
    }, 180_000)
  }
})
