/** GET /api/intelligence/gaps over hand-made claims and papers whose gaps are known. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { computeIntelligence } from '../../src/pipeline/intelligence/refresh'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { insertEntity, insertPapers, linkEntity, paperRow } from '../support/fixtures'
import { adminApp, call, walk, type AdminApp } from './support'
import { NOW, seedKnowledge } from './fixtures'

let database: TestDatabase
let app: AdminApp

const day = (offset: number) =>
  new Date(Date.parse('2026-08-01T00:00:00Z') + offset * 86_400_000).toISOString().slice(0, 10)

beforeAll(async () => {
  database = await freshDatabase()
  await seedKnowledge(database.db)
  // NAD+ and sirtuins: 20 papers over the first 56 days, none after; senescence: one every 3 days to the end (2026-10-29).
  const fading = Array.from({ length: 20 }, (_, i) =>
    paperRow({ id: `MED-${500 + i}`, topic: 'nad-sirtuins', indexedDate: day(i * 3), studyType: 'review' }),
  )
  const steady = Array.from({ length: 30 }, (_, i) =>
    paperRow({ id: `MED-${600 + i}`, topic: 'senescence', indexedDate: day(i * 3 + 2), studyType: 'review' }),
  )
  await insertPapers(database.db, [...fading, ...steady])
  const hallmark = await insertEntity(database.db, 'hallmark', 'cellular-senescence', 'cellular senescence')
  for (const p of fading) await linkEntity(database.db, p.id, p.indexedDate, hallmark.id, 'context')
  await computeIntelligence(database, { now: NOW })
  app = adminApp(database)
})
afterAll(() => database.close())

type GapBody = {
  kind: string
  title: string
  explanation: string
  score: number
  counts: Record<string, number>
  subject: { key: string } | null
  object: { key: string } | null
  papers: { id: string }[]
  contradiction_id: string | null
  contradiction_url: string | null
  topics: string[]
}
const gapsOf = async (query = '') =>
  (await call(app, `/api/intelligence/gaps?limit=100${query}`)).body.data as GapBody[]
const key = (g: GapBody) => `${g.kind}:${g.subject?.key ?? ''}${g.object ? `>${g.object.key}` : ''}`

describe(`gaps on ${testDriver}`, () => {
  test('finds exactly the known gaps of each kind', async () => {
    const gaps = await gapsOf()
    expect(gaps.map(key).sort()).toEqual([
      'declining_attention:hallmark:cellular-senescence',
      'declining_attention:topic:nad-sirtuins',
      'disputed_finding:intervention:CHEBI:6801>phenotype:lifespan',
      'disputed_finding:intervention:CHEBI:9168>phenotype:lifespan',
      'disputed_finding:intervention:exercise>biomarker:il-6-level',
      'no_human_trial:intervention:CHEBI:9168',
      // one paper each: rapamycin up (102-104 go down), metformin both ways, exercise both ways
      'single_paper:intervention:CHEBI:6801>phenotype:lifespan',
      'single_paper:intervention:CHEBI:6801>phenotype:lifespan',
      'single_paper:intervention:CHEBI:9168>phenotype:lifespan',
      'single_paper:intervention:exercise>biomarker:il-6-level',
      'single_paper:intervention:exercise>biomarker:il-6-level',
    ])
    const scores = gaps.map((g) => g.score)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
  })

  test('an intervention with animal lifespan evidence and no human trial is explained plainly; one with a trial is not a gap', async () => {
    const [gap] = await gapsOf('&kind=no_human_trial')
    expect(gap).toMatchObject({
      title: 'rapamycin: lifespan evidence in animals, no human trial',
      explanation:
        '1 paper reports that rapamycin extends lifespan or healthspan in Mus musculus, but no human trial in the corpus tests it.',
      counts: { animal_papers: 1, animal_claims: 1, organisms: 1, human_trials: 0, human_observational_papers: 0 },
      topics: ['mtor-rapamycin'],
    })
    expect(gap!.score).toBeCloseTo((1 - 0.5 ** (1 / 3)) * 0.6, 5)
    expect(gap!.papers.map((p) => p.id)).toEqual(['MED-101'])
  })

  test('a topic and a hallmark with history and no recent work', async () => {
    const gaps = await gapsOf('&kind=declining_attention')
    const topic = gaps.find((g) => g.subject?.key === 'topic:nad-sirtuins')!
    expect(topic.counts).toEqual({
      recent_papers: 0,
      history_papers: 20,
      expected_recent: 10,
      recent_days: 30,
      history_days: 60,
    })
    expect(topic.explanation).toBe(
      '0 papers on NAD+ and sirtuins in the last 30 days, where its earlier rate (20 papers over the previous 60 days) predicts about 10.',
    )
    expect(topic.score).toBeCloseTo(0.5, 5)
    expect(topic.papers.map((p) => p.id)).toEqual(['MED-519', 'MED-518', 'MED-517'])
    const hallmark = gaps.find((g) => g.subject?.key === 'hallmark:cellular-senescence')!
    expect(hallmark.title).toBe('cellular senescence: little recent work')
  })

  test('a disputed finding links its contradiction group', async () => {
    const gaps = await gapsOf('&kind=disputed_finding&entity=intervention:exercise')
    expect(gaps).toHaveLength(1)
    const contradiction = await call(app, new URL(gaps[0]!.contradiction_url!).pathname)
    expect(contradiction.status).toBe(200)
    expect(contradiction.body.data.id).toBe(gaps[0]!.contradiction_id)
    expect(gaps[0]!.papers.map((p) => p.id).sort()).toEqual(['MED-110', 'MED-111'])
    expect(gaps[0]!.explanation).toContain(
      '1 paper finds that exercise raises IL-6 level and 1 paper that it lowers it',
    )
  })

  test.each([
    ['&kind=single_paper,no_human_trial', 6],
    ['&entity=intervention:CHEBI:6801', 3],
    ['&topic=nad-sirtuins', 2],
    ['&topic=other&kind=single_paper', 2],
    ['&min_score=0.45', undefined],
  ])('filters: %s', async (query, count) => {
    const gaps = await gapsOf(query)
    if (count !== undefined) expect(gaps).toHaveLength(count)
    if (query.includes('min_score')) {
      expect(gaps.length).toBeGreaterThan(0)
      for (const g of gaps) expect(g.score).toBeGreaterThanOrEqual(0.45)
    }
  })

  test('pages with cursors, each gap once', async () => {
    const all = await gapsOf()
    const pages = await walk(app, '/api/intelligence/gaps?limit=4')
    expect(pages.map((p) => p.data.length)).toEqual([4, 4, 3])
    expect(pages.flatMap((p) => p.data.map((g: { id: string }) => g.id))).toEqual(
      all.map((g) => (g as unknown as { id: string }).id),
    )
  })

  test('one gap by id; an unknown one is 404', async () => {
    const [gap] = (await call(app, '/api/intelligence/gaps?limit=1')).body.data
    expect((await call(app, `/api/intelligence/gaps/${gap.id}`)).body.data).toEqual(gap)
    const missing = await call(app, '/api/intelligence/gaps/g0000000000000000')
    expect(missing.status).toBe(404)
    expect(missing.body.error).toMatchObject({ code: 'not_found' })
  })
})

type Series = { period_days: number; recent_periods: number; periods: { start: string; end: string; papers: number }[] }

describe(`declining-attention series on ${testDriver}`, () => {
  // The same papers counted by hand: the fading topic's 20, dated day(0) to day(57), per 10 days ending on the reference date.
  const fadingDates = Array.from({ length: 20 }, (_, i) => day(i * 3))

  test('each declining-attention gap stores papers per 10 days, oldest first, ending on the reference date; other kinds none', async () => {
    const gaps = (await gapsOf()) as (GapBody & { series: Series | null })[]
    for (const g of gaps) if (g.kind !== 'declining_attention') expect(g.series).toBeNull()
    const declining = gaps.filter((g) => g.kind === 'declining_attention')
    expect(declining).toHaveLength(2)
    const reference = (await call(app, '/api/intelligence/gaps?limit=1')).body.meta.reference_date as string
    for (const gap of declining) {
      const s = gap.series!
      expect({ period_days: s.period_days, recent_periods: s.recent_periods }).toEqual({
        period_days: 10,
        recent_periods: 3,
      })
      expect(s.periods.at(-1)!.end).toBe(reference)
      expect(s.periods[0]!.start).toBe(day(0)) // the first paper's day, not before
      for (const [i, p] of s.periods.entries()) {
        if (i > 0)
          expect(p.start).toBe(
            new Date(Date.parse(`${s.periods[i - 1]!.end}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10),
          )
        expect(p.papers).toBe(fadingDates.filter((d) => d >= p.start && d <= p.end).length)
      }
      const sum = (ps: Series['periods']) => ps.reduce((n, p) => n + p.papers, 0)
      expect(sum(s.periods.slice(-3))).toBe(gap.counts.recent_papers!)
      expect(sum(s.periods.slice(0, -3))).toBe(gap.counts.history_papers!)
    }
  })

  test('GET /api/intelligence/charts/gaps draws each as a sparkline labelled by a title and a text alternative, with its numbers', async () => {
    const list = (await call(app, '/api/intelligence/gaps?limit=100')).body.data as (GapBody & {
      id: string
      series: Series | null
    })[]
    const { status, body } = await call(app, '/api/intelligence/charts/gaps?limit=100')
    expect(status).toBe(200)
    const withSeries = list.filter((g) => g.series)
    expect(body.data.map((c: { gap_id: string }) => c.gap_id)).toEqual(withSeries.map((g) => g.id))
    for (const chart of body.data) {
      const gap = withSeries.find((g) => g.id === chart.gap_id)!
      expect(chart.title).toBe(
        `${gap.subject!.key === 'topic:nad-sirtuins' ? 'NAD+ and sirtuins' : 'cellular senescence'}: little recent work; papers per 10 days, ${gap.series!.periods[0]!.start} to ${gap.series!.periods.at(-1)!.end}`,
      )
      expect(chart.description).toContain(`${gap.counts.recent_papers} papers in the last 3`)
      expect(chart.table.rows.map((r: unknown[]) => [r[0], r[1], r[2]])).toEqual(
        gap.series!.periods.map((p) => [p.start, p.end, p.papers]),
      )
      for (const variant of ['wide', 'narrow']) {
        const svg = chart.svg[variant] as string
        expect(svg).toMatch(
          new RegExp(`^<svg [^>]*role="img" aria-labelledby="${chart.id}-${variant}-t ${chart.id}-${variant}-d"`),
        )
        // One point per period, each announcing its count.
        const points = [...svg.matchAll(/<path [^>]*aria-roledescription="point"[^>]*>/g)].map((m) =>
          Number(/aria-label="[^"]*Papers: (\d+)/.exec(m[0])![1]),
        )
        expect(points).toEqual(gap.series!.periods.map((p) => p.papers))
      }
    }
    // Filters and paging are the list's: only the page's declining gaps.
    const none = await call(app, '/api/intelligence/charts/gaps?kind=single_paper')
    expect(none.body.data).toEqual([])
    const bad = await call(app, '/api/intelligence/charts/gaps?kind=gap')
    expect(bad.status).toBe(400)
  })
})
