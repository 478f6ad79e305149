/**
 * The charts of the public pages, read back from the HTML: each drawing is labelled (role img, a title
 * and a description), its bars announce the same numbers as its table, and those are the Data API's
 * for the request printed under the chart.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { lastMonths } from '../../src/modules/site/charts/site-charts'
import { keptDrawings } from '../../src/modules/site/charts/vega-svg'
import { TOPIC_INFO } from '../../src/taxonomy'
import { req, useTestApp } from '../support/app'
import { bearer } from '../support/fixtures'
import { seedCharts } from './chart-corpus'
import { barsOf, drawingsOf, figureOf, tableOf } from './chart-reading'

const api = useTestApp()
beforeAll(async () => {
  await seedCharts(api.database.db)
})

const page = async (path: string) => {
  const response = await api.app.handle(req(path))
  expect({ path, status: response.status }).toEqual({ path, status: 200 })
  return response.text()
}
const data = async (path: string) => await (await api.app.handle(req(path, bearer(api.key)))).json()

/** The Data API's group_by counts as a map. */
const groups = async (path: string) =>
  new Map<string, number>((await data(path)).group_by.map((g: { key: string; count: number }) => [g.key, g.count]))

function expectLabelled(figure: string, title: string) {
  const drawings = drawingsOf(figure)
  expect(drawings.map((d) => d.title)).toEqual([title, title])
  for (const { root } of drawings) {
    expect(root).toContain('role="img"')
    expect(root).toMatch(/aria-labelledby="chart-[a-z-]+-(wide|narrow)-t chart-[a-z-]+-(wide|narrow)-d"/)
    expect(root).toContain('viewBox=')
    expect(root).not.toMatch(/ width="/) // sized by the stylesheet, so it fits a phone
  }
  expect(figure).toContain('<figcaption')
  expect(figure).not.toContain('style=') // the page's CSP allows no inline style attribute
}

describe('charts', () => {
  const months = lastMonths(new Date())

  test('home: papers about aging biology per month for 24 months by topic, equal to /api/v1/papers group_by=indexed_month', async () => {
    const figure = figureOf(await page('/'), 'chart-monthly')
    expectLabelled(figure, `Papers about aging biology per month, ${months[0]} to ${months[23]}, by topic`)
    const table = tableOf(figure)
    expect(table.head).toEqual(['Month', ...TOPIC_INFO.map((t) => t.name), 'All topics'])
    expect(table.rows.map((r) => r[0])).toEqual(months)
    const bars = barsOf(figure)
    for (const [i, topic] of TOPIC_INFO.entries()) {
      const counts = await groups(
        `/api/v1/papers?since=${months[0]}-01&topic=${topic.slug}&group_by=indexed_month&limit=1`,
      )
      expect({ topic: topic.slug, column: table.rows.map((r) => r[i + 1]) }).toEqual({
        topic: topic.slug,
        column: months.map((m) => counts.get(m) ?? 0),
      })
      const drawn = bars.filter((b) => b.Topic === topic.name).map((b) => [b['Month indexed'], Number(b.Papers)])
      expect(drawn).toEqual(months.map((m) => [m, counts.get(m) ?? 0]))
    }
    expect(table.rows.reduce((n, r) => n + (r[r.length - 1] as number), 0)).toBe(48) // 60 papers, every fifth tangential
  })

  test('topic page: papers per month and the study-type mix, equal to the Data API', async () => {
    const html = await page('/topics/senescence')
    const monthly = figureOf(html, 'chart-monthly')
    expectLabelled(monthly, `Cellular senescence: papers per month, ${months[0]} to ${months[23]}`)
    const counts = await groups(`/api/v1/papers?since=${months[0]}-01&topic=senescence&group_by=indexed_month&limit=1`)
    expect(tableOf(monthly).rows).toEqual(months.map((m) => [m, counts.get(m) ?? 0]))
    expect(barsOf(monthly).map((b) => Number(b.Papers))).toEqual(months.map((m) => counts.get(m) ?? 0))
    const mix = figureOf(html, 'chart-study-types')
    expectLabelled(mix, 'Cellular senescence: papers by study type')
    const types = await groups('/api/v1/papers?topic=senescence&group_by=study_type&limit=1')
    const labels: Record<string, string> = {
      animal: 'Animal study',
      human_trial: 'Human trial',
      cells: 'Cell study',
      review: 'Review',
    }
    expect(Object.fromEntries(tableOf(mix).rows)).toEqual(
      Object.fromEntries([...types].map(([k, n]) => [labels[k] ?? k, n])),
    )
  })

  test('entity page: papers per year of publication and claims by organism and direction, equal to the Data API', async () => {
    const html = await page('/entities/gene/CDKN2A')
    const years = figureOf(html, 'chart-years')
    expectLabelled(years, 'CDKN2A: papers per year of publication')
    const papers: { published_date: string | null }[] = (await data('/api/v1/entities/gene/CDKN2A?limit=100')).data
      .papers
    expect(papers).toHaveLength(20)
    const byYear = new Map<string, number>()
    for (const p of papers)
      if (p.published_date)
        byYear.set(p.published_date.slice(0, 4), (byYear.get(p.published_date.slice(0, 4)) ?? 0) + 1)
    expect(tableOf(years).rows.filter((r) => r[1] !== 0)).toEqual([...byYear].sort().map(([y, n]) => [y, n]))
    expect(years).toContain('2 papers without a publication date are left out')
    const directions = figureOf(html, 'chart-directions')
    expectLabelled(directions, 'CDKN2A: claims by organism and direction')
    const claims: { organism: string | null; direction: string | null }[] = (
      await data('/api/v1/claims?subject=CDKN2A&limit=100')
    ).data
    const expected = new Map<string, number>()
    for (const c of claims) {
      const key = `${c.organism ?? 'Not stated'} / ${c.direction?.replace('_', ' ') ?? 'not stated'}`
      expected.set(key, (expected.get(key) ?? 0) + 1)
    }
    const table = new Map(tableOf(directions).rows.map((r) => [`${r[0]} / ${r[1]}`, r[2]]))
    expect(table).toEqual(expected)
    expect(
      barsOf(directions)
        .map((b) => `${b.Organism} / ${b.Direction}: ${b.Claims}`)
        .sort(),
    ).toEqual([...expected].map(([k, n]) => `${k}: ${n}`).sort())
  })

  test('evidence page: the groups as a direction chart, equal to /api/v1/evidence', async () => {
    const figure = figureOf(await page('/evidence?subject=CDKN2A&object=senescence'), 'chart-directions')
    expectLabelled(figure, 'Claims about CDKN2A and senescence by organism and direction')
    const answer = (await data('/api/v1/evidence?subject=CDKN2A&object=senescence')).data
    const expected = answer.groups.map(
      (g: { organism: string | null; direction: string | null; claim_count: number }) => [
        g.organism ?? 'Not stated',
        g.direction?.replace('_', ' ') ?? 'not stated',
        g.claim_count,
      ],
    )
    expect(tableOf(figure).rows).toEqual(expected)
  })

  test('a drawing is kept by its numbers: drawing the same page again draws nothing new', async () => {
    await page('/topics/senescence?again=1')
    const kept = keptDrawings()
    await page('/topics/senescence?again=2')
    expect(keptDrawings()).toBe(kept)
  })
})
