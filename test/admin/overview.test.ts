/**
 * GET /api/overview/charts: the console overview's four charts, their numbers counted per UTC day
 * (papers stored, judged, corrected by an editor; job runs by outcome), the review queue as GET
 * /api/review lists it, sources by health; each drawing labelled by its title and description. Operators only.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { jobRuns, judgementVersions, rssSources } from '../../src/db/schema'
import { lastDays } from '../../src/modules/admin/overview/service'
import { useAdminApp } from '../support/admin'
import { insertPapers, paperRow } from '../support/fixtures'

const api = useAdminApp()
let operator = ''
const day = (offset: number) =>
  new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - offset, 23, 30))

beforeAll(async () => {
  operator = (await api.operator()).token
  const db = api.database.db
  await insertPapers(db, [
    paperRow({ id: 'MED-1', createdAt: day(0), judgedAt: day(0), relevanceConfidence: 0.3 }), // low confidence: in the queue
    paperRow({ id: 'MED-2', createdAt: day(0), judgedAt: day(1) }),
    paperRow({ id: 'MED-3', createdAt: day(2), judgedAt: day(2) }),
    paperRow({ id: 'MED-4', createdAt: day(40), judgedAt: day(40) }), // before the 30 days
    paperRow({ id: 'MED-5', createdAt: day(1), judgedAt: null, relevance: null, judgementModel: null }),
  ])
  await db.insert(judgementVersions).values([
    { paperId: 'MED-2', relevance: 2, model: 'editor', judgedAt: day(1) },
    { paperId: 'MED-3', relevance: 1, model: 'editor', judgedAt: day(1) },
    { paperId: 'MED-3', relevance: 2.6, model: 'geroscope-builtin-1', judgedAt: day(1) }, // not an editor's
  ])
  await db.insert(jobRuns).values([
    { job: 'harvest', startedAt: day(0), outcome: 'ok' },
    { job: 'analyze', startedAt: day(0), outcome: 'failed' },
    { job: 'harvest', startedAt: day(3), outcome: 'ok' },
    { job: 'scrape', startedAt: day(0), outcome: 'running' },
    { job: 'scrape', startedAt: day(3), outcome: 'partial' },
    { job: 'export', startedAt: day(0), outcome: 'cancelled' },
  ])
  await db.insert(rssSources).values([
    { name: 'A', url: 'https://a.test/feed', lastFetchedAt: day(0) },
    { name: 'B', url: 'https://b.test/feed', lastFetchedAt: day(0), consecutiveFailures: 2 },
    { name: 'C', url: 'https://c.test/feed' },
    { name: 'D', url: 'https://d.test/feed', enabled: false },
  ])
})

type Chart = {
  id: string
  title: string
  description: string
  table: { head: string[]; rows: (string | number)[][] }
  svg: { wide: string; narrow: string }
}
const charts = async (): Promise<Chart[]> => {
  const response = await api.call('/api/overview/charts', { cookie: operator })
  expect(response.status).toBe(200)
  return (await response.json()).data
}
const rowOf = (chart: Chart, key: string) => chart.table.rows.find((r) => r[0] === key)

describe('GET /api/overview/charts', () => {
  test('papers harvested, judged and corrected per UTC day over 30 days', async () => {
    const [papers] = await charts()
    const days = lastDays(new Date())
    expect(papers.id).toBe('chart-papers-daily')
    expect(papers.table.head).toEqual(['Day', 'Harvested', 'Judged', 'Corrected by an editor'])
    expect(papers.table.rows.map((r) => r[0])).toEqual(days)
    expect(rowOf(papers, days[29])).toEqual([days[29], 2, 1, 0])
    expect(rowOf(papers, days[28])).toEqual([days[28], 1, 1, 2])
    expect(rowOf(papers, days[27])).toEqual([days[27], 1, 1, 0])
    expect(papers.description).toBe(
      'Lines of papers per day over 30 days: 4 papers harvested, 3 papers judged and 2 corrections by editors.',
    )
  })

  test('job runs per day by outcome; sources by health', async () => {
    const [, runs, , sources] = await charts()
    const days = lastDays(new Date())
    expect(runs.table.head).toEqual(['Day', 'ok', 'partial', 'failed', 'cancelled', 'running'])
    expect(rowOf(runs, days[29])).toEqual([days[29], 1, 0, 1, 1, 1])
    expect(rowOf(runs, days[26])).toEqual([days[26], 1, 1, 0, 0, 0])
    expect(sources.table.rows).toEqual([
      ['Working', 1],
      ['Failing', 1],
      ['Never fetched', 1],
      ['Disabled', 1],
    ])
  })

  test('the review queue, as GET /api/review lists it', async () => {
    const [, , queue] = await charts()
    const listed: { reason: string }[] = (await (await api.call('/api/review?limit=100', { cookie: operator })).json())
      .data
    expect(queue.table.rows).toEqual([
      ['Low confidence', listed.filter((i) => i.reason === 'low_confidence').length],
      ['Audit sample', listed.filter((i) => i.reason === 'audit').length],
    ])
    expect(queue.table.rows[0][1]).toBe(1)
  })

  test("each drawing is an SVG labelled by the chart's title and description", async () => {
    for (const chart of await charts()) {
      for (const [variant, svg] of Object.entries(chart.svg)) {
        expect(svg).toStartWith('<svg ')
        expect(svg).toContain(`role="img" aria-labelledby="${chart.id}-${variant}-t ${chart.id}-${variant}-d"`)
        expect(svg).toContain(`<title id="${chart.id}-${variant}-t">${chart.title}</title>`)
      }
    }
  })

  test('operators only; no parameters', async () => {
    const member = (await api.member()).token
    expect((await api.call('/api/overview/charts', { cookie: member })).status).toBe(403)
    expect((await api.call('/api/overview/charts')).status).toBe(401)
    const bad = await api.call('/api/overview/charts?days=7', { cookie: operator })
    expect(bad.status).toBe(400)
    expect((await bad.json()).error.message).toContain('unknown parameter "days"')
  })
})
