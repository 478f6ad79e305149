/** GET /api/intelligence/contradictions over hand-made claims whose contradictions are known. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { computeIntelligence } from '../../src/pipeline/intelligence/refresh'
import { claimWeight } from '../../src/pipeline/intelligence/scoring'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { insertClaim } from '../support/fixtures'
import { adminApp, call, walk, type AdminApp } from './support'
import { GROUPS, NOW, seedKnowledge } from './fixtures'

let database: TestDatabase
let app: AdminApp
let seeded: Awaited<ReturnType<typeof seedKnowledge>>
const idOf = (key: string) => `c${createHash('md5').update(key).digest('hex').slice(0, 16)}`
const ids = (body: { data: { id: string }[] }) => body.data.map((g) => g.id)

beforeAll(async () => {
  database = await freshDatabase()
  seeded = await seedKnowledge(database.db)
  await computeIntelligence(database, { now: NOW })
  app = adminApp(database)
})
afterAll(() => database.close())

describe(`contradictions on ${testDriver}`, () => {
  test('finds exactly the three comparable disagreements, grouped per subject and object, best first', async () => {
    const { status, body } = await call(app, '/api/intelligence/contradictions')
    expect(status).toBe(200)
    expect(ids(body)).toEqual([
      idOf(GROUPS.exerciseIl6),
      idOf(GROUPS.rapamycinLifespan),
      idOf(GROUPS.metforminLifespan),
    ])
    expect(body.meta).toMatchObject({ computed_at: NOW.toISOString(), reference_date: '2026-10-20', stale: false })
    expect(body.meta.scoring).toContain('√(w_up·w_down)')
  })

  test('rapamycin and lifespan: the unstated sex and the shared dose make 101 and 102 comparable; 103, 104 and the no-change claim stay out', async () => {
    const { body } = await call(app, `/api/intelligence/contradictions/${idOf(GROUPS.rapamycinLifespan)}`)
    const g = body.data
    expect(g.subject).toEqual({
      key: 'intervention:CHEBI:9168',
      label: 'rapamycin',
      entity: { type: 'intervention', key: 'CHEBI:9168', name: 'rapamycin' },
    })
    expect(g.papers).toEqual({ increase: 1, decrease: 1 })
    expect(g.claims).toEqual({ increase: 1, decrease: 1 })
    expect(g.organisms).toEqual([{ key: 'NCBITaxon:10090', name: 'Mus musculus' }])
    expect(g.pairs).toHaveLength(1)
    const [pair] = g.pairs
    expect(pair.conditions).toEqual({ dose: '14 ppm' })
    expect([pair.increase.claim.id, pair.decrease.claim.id]).toEqual([seeded.claims.up101.id, seeded.claims.down102.id])
    expect(pair.increase.paper).toMatchObject({
      id: 'MED-101',
      study_type: 'animal',
      topic: 'mtor-rapamycin',
      site_url: 'https://geroscope.test/papers/MED-101',
    })
  })

  test('evidence follows the abstract licence: shown under CC BY, null under CC BY-NC', async () => {
    const { body } = await call(app, `/api/intelligence/contradictions/${idOf(GROUPS.rapamycinLifespan)}`)
    const [pair] = body.data.pairs
    expect(pair.increase.claim.evidence).toBe('Evidence sentence of MED-101.')
    expect(pair.decrease.claim.evidence).toBeNull()
  })

  test('relations without a direction oppose, and unresolved words and other spellings of the organism still match', async () => {
    const { body } = await call(app, `/api/intelligence/contradictions/${idOf(GROUPS.metforminLifespan)}`)
    expect(body.data.pairs[0].increase.claim.relation).toBe('extends_lifespan')
    expect(body.data.pairs[0].decrease.claim).toMatchObject({
      relation: 'shortens_lifespan',
      direction: null,
      subject: { text: 'Metformin', entity: null },
    })
    expect(body.data.organisms).toEqual([{ key: 'NCBITaxon:10090', name: 'Mus musculus' }])
  })

  test('a paper never contradicts itself, and claims about different tissues are not compared', async () => {
    const { body } = await call(app, '/api/intelligence/contradictions?entity=biomarker:il-6-level')
    expect(ids(body)).toEqual([idOf(GROUPS.exerciseIl6)])
  })

  test('scores follow the documented formula', async () => {
    const { body } = await call(app, '/api/intelligence/contradictions')
    const w = (studyType: string, n: number | null, confidence: number, paperDate = '2026-10-01') =>
      claimWeight({ studyType, preprint: false, n, paperDate, reference: '2026-11-01', confidence })
    const expected = [
      Math.sqrt(w('human_trial', 400, 0.85) * w('human_trial', 400, 0.85)),
      Math.sqrt(w('animal', 120, 0.9) * w('animal', null, 0.7)),
      Math.sqrt(w('animal', null, 0.6) * w('animal', null, 0.6)),
    ]
    body.data.forEach((g: { score: number; pairs: { score: number }[] }, i: number) => {
      expect(g.score).toBeCloseTo(expected[i]!, 5) // balance 1: every group here has one paper a side
      expect(g.pairs[0]!.score).toBeCloseTo(expected[i]!, 5)
    })
  })

  test('uneven sides weigh less: a second paper on one side halves the balance bonus', async () => {
    const other = await freshDatabase()
    try {
      const s = await seedKnowledge(other.db)
      const balanced = async () =>
        (await call(adminApp(other), `/api/intelligence/contradictions/${idOf(GROUPS.exerciseIl6)}`)).body.data
      await computeIntelligence(other, { now: NOW })
      const before = await balanced()
      await insertClaim(other.db, {
        paperId: 'MED-112',
        subjectText: 'exercise',
        subjectEntityId: s.entities.exercise.id,
        relation: 'increases',
        objectText: 'IL-6',
        objectEntityId: s.entities.il6.id,
        organism: 'Homo sapiens',
        direction: 'increase',
        context: null,
        confidence: 0.05,
      })
      await computeIntelligence(other, { now: NOW })
      const after = await balanced()
      expect(after.papers).toEqual({ increase: 2, decrease: 1 })
      expect(after.score).toBeCloseTo(before.score * 0.75, 5)
    } finally {
      await other.close()
    }
  })
})

describe(`the contradictions chart on ${testDriver}`, () => {
  type Group = {
    id: string
    subject: { label: string }
    object: { label: string }
    claims: { increase: number; decrease: number }
  }
  const tableOf = (groups: Group[]) =>
    groups.map((g): [string, number, number] => [
      `${g.subject.label} → ${g.object.label}`,
      g.claims.increase,
      g.claims.decrease,
    ])
  const barsOf = (svg: string) =>
    [...svg.matchAll(/<path [^>]*aria-roledescription="bar"[^>]*>/g)].map((m) =>
      Object.fromEntries(
        /aria-label="([^"]*)"/
          .exec(m[0])![1]!
          .split('; ')
          .map((kv) => kv.split(': ')),
      ),
    )

  test('draws the claims on each side of the groups of the same list page, labelled, with the numbers', async () => {
    for (const query of ['limit=20', 'limit=2', 'entity=intervention:CHEBI:6801']) {
      const list = (await call(app, `/api/intelligence/contradictions?${query}`)).body.data as Group[]
      const { status, body } = await call(app, `/api/intelligence/charts/contradictions?${query}`)
      expect(status).toBe(200)
      const chart = body.data
      expect({ query, rows: chart.table.rows }).toEqual({ query, rows: tableOf(list) })
      expect(chart.title).toBe('Claims on each side of the contradictions listed')
      const total = (d: 'increase' | 'decrease') => list.reduce((n, g) => n + g.claims[d], 0)
      expect(chart.description).toBe(
        `Bars of claims in ${list.length} contradiction group${list.length === 1 ? '' : 's'}, best score first, ` +
          `split by the direction of the effect: ${total('increase')} for an increase, ${total('decrease')} for a decrease.`,
      )
      for (const variant of ['wide', 'narrow']) {
        const svg = chart.svg[variant] as string
        expect(svg).toMatch(
          new RegExp(
            `^<svg [^>]*role="img" aria-labelledby="chart-contradictions-${variant}-t chart-contradictions-${variant}-d"`,
          ),
        )
        const bars = barsOf(svg)
        for (const [row, up, down] of tableOf(list)) {
          const claims = (d: string) =>
            Number(bars.find((b) => b['Subject → object'] === row && b.Direction === d)?.Claims ?? 0)
          expect({ row, up: claims('increase'), down: claims('decrease') }).toEqual({ row, up, down })
        }
      }
    }
    expect((await call(app, '/api/intelligence/charts/contradictions?min_score=2')).status).toBe(400)
  })
})

describe(`filters on ${testDriver}`, () => {
  test.each([
    ['topic=mtor-rapamycin', [GROUPS.rapamycinLifespan]],
    ['topic=dietary-restriction,other', [GROUPS.exerciseIl6, GROUPS.metforminLifespan]],
    ['entity=intervention:CHEBI:9168', [GROUPS.rapamycinLifespan]],
    ['entity=phenotype:lifespan', [GROUPS.rapamycinLifespan, GROUPS.metforminLifespan]],
    ['entity=gene:HGNC:3942', []],
    ['organism=mice', [GROUPS.rapamycinLifespan, GROUPS.metforminLifespan]],
    ['organism=Homo%20sapiens', [GROUPS.exerciseIl6]],
    ['organism=NCBITaxon:9606', [GROUPS.exerciseIl6]],
    ['organism=Caenorhabditis%20elegans', []],
    ['since=2026-10-15', [GROUPS.exerciseIl6]],
    ['min_score=0.4', [GROUPS.exerciseIl6]],
    ['min_score=0.4&topic=mtor-rapamycin', []],
  ])('%s', async (query, expected) => {
    const { status, body } = await call(app, `/api/intelligence/contradictions?${query}`)
    expect(status).toBe(200)
    expect(ids(body)).toEqual(expected.map(idOf))
  })

  test("an organism filter shows only that organism's pairs", async () => {
    const { body } = await call(app, '/api/intelligence/contradictions?organism=mouse')
    for (const g of body.data) for (const p of g.pairs) expect(p.organism.key).toBe('NCBITaxon:10090')
  })
})

describe(`paging on ${testDriver}`, () => {
  test('a walk with limit=1 gives every group once, in order', async () => {
    const pages = await walk(app, '/api/intelligence/contradictions?limit=1')
    expect(pages.map((p) => p.data.length)).toEqual([1, 1, 1])
    expect(pages.flatMap(ids)).toEqual(
      [GROUPS.exerciseIl6, GROUPS.rapamycinLifespan, GROUPS.metforminLifespan].map(idOf),
    )
    expect(pages.at(-1).pagination).toEqual({ next_cursor: null, has_more: false, limit: 1 })
  })

  test('a cursor made with other filters, or before a recomputation, is refused', async () => {
    const first = await call(app, '/api/intelligence/contradictions?limit=1')
    const cursor = encodeURIComponent(first.body.pagination.next_cursor)
    const other = await call(app, `/api/intelligence/contradictions?limit=1&topic=other&cursor=${cursor}`)
    expect(other.status).toBe(400)
    expect(other.body.error.message).toContain('other filters')
    const gaps = await call(app, `/api/intelligence/gaps?limit=1&cursor=${cursor}`)
    expect(gaps.body.error.message).toContain('another endpoint')
    await computeIntelligence(database, { now: new Date(NOW.getTime() + 60_000) })
    const stale = await call(app, `/api/intelligence/contradictions?limit=1&cursor=${cursor}`)
    expect(stale.status).toBe(400)
    expect(stale.body.error).toMatchObject({ code: 'invalid_parameter' })
    expect(stale.body.error.message).toContain('start again from the first page')
  })
})

describe(`freshness on ${testDriver}`, () => {
  test('the first request computes the snapshot; a new claim makes it stale until the next run', async () => {
    const db = await freshDatabase()
    try {
      const s = await seedKnowledge(db.db)
      const local = adminApp(db)
      const first = await call(local, '/api/intelligence/contradictions')
      expect(first.status).toBe(200)
      expect(first.body.data).toHaveLength(3)
      expect(first.body.meta.stale).toBe(false)
      await insertClaim(db.db, {
        paperId: 'MED-112',
        subjectText: 'rapamycin',
        subjectEntityId: s.entities.rapamycin.id,
        relation: 'increases',
        objectText: 'lifespan',
        objectEntityId: s.entities.lifespan.id,
        organism: 'Mus musculus',
        direction: 'increase',
      })
      expect((await call(local, '/api/intelligence/contradictions')).body.meta.stale).toBe(true)
      const refreshed = await call(local, '/api/intelligence/refresh', { method: 'POST' })
      expect(refreshed.status).toBe(200)
      expect(refreshed.body.data.counts).toMatchObject({ contradiction_groups: 3 })
      expect((await call(local, '/api/intelligence/contradictions')).body.meta.stale).toBe(false)
    } finally {
      await db.close()
    }
  })
})
