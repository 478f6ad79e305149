import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CorpusSnapshot } from '../../../src/modules/v1/stats/snapshot'
import { freshDatabase, type TestDatabase } from '../../support/database'
import { req, testApp } from '../../support/app'
import {
  bearer,
  createTestKey,
  insertClaim,
  insertEntity,
  insertPapers,
  insertStory,
  linkEntity,
  paperRow,
} from '../../support/fixtures'

const T0 = new Date('2026-10-10T12:00:00Z') // today is 2026-10-10 (UTC)
let database: TestDatabase
let snapshot: CorpusSnapshot
let app: Awaited<ReturnType<typeof testApp>>
let key: string
let clock = T0
const get = async (path: string) => {
  const response = await app.handle(req(path, bearer(key)))
  return { status: response.status, body: await response.json(), headers: response.headers }
}

const unjudged = {
  relevance: null,
  relevanceConfidence: null,
  newsworthiness: null,
  studyType: null,
  studyTypeConfidence: null,
  topic: null,
  topicConfidence: null,
  promotional: null,
  judgementModel: null,
  judgementPromptVersion: null,
  judgedAt: null,
}
const ext = (extracted: boolean) => ({ extractedAt: extracted ? new Date('2026-10-10T06:00:00Z') : null })
// A corpus where every number is known. Aging: r >= 2; core: r >= 2.5; tangential: 1 <= r < 2.
const corpus = [
  paperRow({
    id: 'MED-1',
    indexedDate: '2026-10-10',
    relevance: 3,
    abstractLicense: 'cc by',
    studyType: 'animal',
    topic: 'senescence',
    ...ext(true),
  }),
  paperRow({
    id: 'MED-2',
    indexedDate: '2026-10-10',
    relevance: 2.5,
    abstractLicense: 'cc0',
    studyType: 'human_trial',
    topic: 'senescence',
    ...ext(true),
  }),
  paperRow({
    id: 'PPR-1',
    source: 'PPR',
    preprint: true,
    indexedDate: '2026-10-10',
    relevance: 2.7,
    abstractLicense: 'cc by',
    studyType: 'computational',
    topic: 'reprogramming',
    ...ext(false),
  }),
  paperRow({
    id: 'MED-3',
    indexedDate: '2026-10-09',
    relevance: 2.49,
    abstractLicense: 'public domain',
    studyType: 'cells',
    topic: 'glp-1',
    ...ext(false),
  }),
  paperRow({
    id: 'MED-4',
    indexedDate: '2026-10-09',
    relevance: 2,
    abstractLicense: 'cc by-sa',
    studyType: 'animal',
    topic: 'other',
    ...ext(true),
  }),
  paperRow({
    id: 'MED-5',
    indexedDate: '2026-10-08',
    relevance: 1.99,
    abstractLicense: 'cc by-nc',
    studyType: 'animal',
    topic: 'senescence',
    ...ext(true),
  }),
  paperRow({
    id: 'MED-6',
    indexedDate: '2026-10-08',
    relevance: 1,
    abstractLicense: null,
    studyType: 'other',
    topic: 'other',
    ...ext(false),
  }),
  paperRow({
    id: 'MED-12',
    indexedDate: '2026-10-07',
    relevance: 2.1,
    abstractLicense: 'cc by',
    studyType: null,
    topic: 'brain-aging',
    ...ext(false),
  }),
  paperRow({
    id: 'MED-7',
    indexedDate: '2026-10-01',
    relevance: 0.99,
    abstractLicense: 'cc by',
    abstract: null,
    studyType: 'other',
    topic: 'other',
    ...ext(false),
  }),
  paperRow({
    id: 'PPR-2',
    source: 'PPR',
    preprint: true,
    indexedDate: '2026-09-30',
    ...unjudged,
    abstractLicense: null,
    ...ext(false),
  }),
  paperRow({
    id: 'MED-8',
    indexedDate: '2026-09-11',
    relevance: 0,
    abstractLicense: 'cc by',
    studyType: 'other',
    topic: 'other',
    ...ext(false),
  }), // 29 days old: last daily entry
  paperRow({ id: 'MED-9', indexedDate: '2026-09-10', ...unjudged, abstractLicense: 'cc by', ...ext(false) }), // 30 days old: outside daily
  paperRow({
    id: 'MED-11',
    indexedDate: '2026-01-15',
    relevance: 2.2,
    abstractLicense: 'cc by',
    studyType: 'review',
    topic: null,
    ...ext(true),
  }),
]

const EXPECTED = {
  papers: { total: 13, judged: 11, aging: 7, core: 3, tangential: 2, preprints: 2, open_abstracts: 8 },
  stories: { published: 2 },
  knowledge: { papers_extracted: 5, entities: 2, claims: 3 },
  by_study_type: [
    { study_type: 'human_trial', label: 'Human trial', papers: 1 },
    { study_type: 'human_observational', label: 'Human observational', papers: 0 },
    { study_type: 'animal', label: 'Animal study', papers: 2 },
    { study_type: 'invertebrate', label: 'Invertebrate study', papers: 0 },
    { study_type: 'cells', label: 'Cell study', papers: 1 },
    { study_type: 'computational', label: 'Computational', papers: 1 },
    { study_type: 'review', label: 'Review', papers: 1 },
    { study_type: 'other', label: 'Other', papers: 0 },
  ],
  by_topic: [
    { topic: 'senescence', papers: 2 },
    { topic: 'epigenetic-clocks', papers: 0 },
    { topic: 'mtor-rapamycin', papers: 0 },
    { topic: 'reprogramming', papers: 1 },
    { topic: 'nad-sirtuins', papers: 0 },
    { topic: 'mitochondria', papers: 0 },
    { topic: 'dietary-restriction', papers: 0 },
    { topic: 'glp-1', papers: 1 },
    { topic: 'inflammaging', papers: 0 },
    { topic: 'brain-aging', papers: 1 },
    { topic: 'other', papers: 1 },
  ],
  coverage: { first_indexed: '2026-01-15', last_indexed: '2026-10-10' },
  generated_at: '2026-10-10T12:00:00.000Z',
}

/** The 30 days 2026-10-10 back to 2026-09-11, zeros except where papers entered. */
function expectedDaily() {
  const nonZero: Record<string, [number, number, number]> = {
    '2026-10-10': [3, 3, 1],
    '2026-10-09': [2, 2, 0],
    '2026-10-08': [2, 0, 0],
    '2026-10-07': [1, 1, 0],
    '2026-10-01': [1, 0, 0],
    '2026-09-30': [1, 0, 1],
    '2026-09-11': [1, 0, 0],
  }
  return Array.from({ length: 30 }, (_, i) => {
    const date = new Date(Date.UTC(2026, 9, 10 - i)).toISOString().slice(0, 10)
    const [papers, aging, preprints] = nonZero[date] ?? [0, 0, 0]
    return { date, papers, aging, preprints }
  })
}

beforeAll(async () => {
  database = await freshDatabase()
  snapshot = new CorpusSnapshot(database.db, () => clock)
  app = await testApp(database, { snapshot })
  key = (await createTestKey(database.db, { tier: 'pro' })).key
  await insertPapers(database.db, corpus)
  await insertStory(database.db, 'MED-1')
  await insertStory(database.db, 'MED-3')
  const rapamycin = await insertEntity(database.db, 'intervention', 'CHEBI:9168', 'rapamycin')
  const mouse = await insertEntity(database.db, 'organism', 'NCBITaxon:10090', 'Mus musculus')
  const orphan = await insertEntity(database.db, 'gene', 'HGNC:3942', 'MTOR') // in no paper: not counted
  await linkEntity(database.db, 'MED-1', '2026-10-10', rapamycin.id, 'studied')
  await linkEntity(database.db, 'MED-1', '2026-10-10', rapamycin.id, 'mechanism')
  await linkEntity(database.db, 'MED-2', '2026-10-10', rapamycin.id, 'studied')
  await linkEntity(database.db, 'MED-2', '2026-10-10', mouse.id, 'model')
  await insertClaim(database.db, { paperId: 'MED-1', subjectEntityId: rapamycin.id })
  await insertClaim(database.db, { paperId: 'MED-1', objectEntityId: orphan.id })
  await insertClaim(database.db, { paperId: 'MED-2' })
})
afterAll(async () => {
  await database.close()
})

describe('GET /api/v1/stats', () => {
  test('serves every number of Stats, exactly, over a hand-built corpus', async () => {
    const { status, body, headers } = await get('/api/v1/stats')
    expect(status).toBe(200)
    expect(body).toEqual({ data: { ...EXPECTED, daily: expectedDaily() } })
    expect(headers.get('cache-control')).toBe('private, max-age=60')
  })

  test('daily: 30 UTC days, newest first, today included, days without papers as zeros', async () => {
    const { daily } = (await get('/api/v1/stats')).body.data
    expect(daily).toHaveLength(30)
    expect(daily[0]).toEqual({ date: '2026-10-10', papers: 3, aging: 3, preprints: 1 })
    expect(daily[29]).toEqual({ date: '2026-09-11', papers: 1, aging: 0, preprints: 0 })
    expect(daily[5]).toEqual({ date: '2026-10-05', papers: 0, aging: 0, preprints: 0 })
  })

  test('the numbers are cached: a new paper shows only once the snapshot is 60 seconds old', async () => {
    await get('/api/v1/stats') // computed at T0
    await insertPapers(database.db, [
      paperRow({ id: 'MED-99', indexedDate: '2026-10-10', relevance: 2.8, topic: 'mitochondria' }),
    ])
    clock = new Date(T0.getTime() + 59_999)
    const cached = (await get('/api/v1/stats')).body.data
    expect(cached.papers.total).toBe(13)
    expect(cached.generated_at).toBe('2026-10-10T12:00:00.000Z')
    expect(
      (await get('/api/v1/topics')).body.data.find((t: { slug: string }) => t.slug === 'mitochondria').papers_total,
    ).toBe(0)
    clock = new Date(T0.getTime() + 60_000)
    const fresh = (await get('/api/v1/stats')).body.data
    expect(fresh.papers).toMatchObject({ total: 14, aging: 8, core: 4 })
    expect(fresh.daily[0]).toEqual({ date: '2026-10-10', papers: 4, aging: 4, preprints: 1 })
    expect(fresh.generated_at).toBe('2026-10-10T12:01:00.000Z')
    // /topics reads the same snapshot.
    expect(
      (await get('/api/v1/topics')).body.data.find((t: { slug: string }) => t.slug === 'mitochondria'),
    ).toMatchObject({ papers_7d: 1, papers_total: 1 })
  })

  test('takes no parameters', async () => {
    const response = await app.handle(req('/api/v1/stats?fresh=true', bearer(key)))
    expect(response.status).toBe(400)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect((await response.json()).error).toEqual({
      status: 400,
      code: 'invalid_parameter',
      message: 'unknown parameter "fresh"; this endpoint takes none',
    })
  })

  test('needs a key', async () => {
    const response = await app.handle(req('/api/v1/stats'))
    expect(response.status).toBe(401)
    expect((await response.json()).error.code).toBe('missing_key')
  })
})

describe('CorpusSnapshot', () => {
  test('an empty corpus: zeros everywhere, null coverage, 30 zero days', async () => {
    const empty = await freshDatabase()
    try {
      const { stats } = await new CorpusSnapshot(empty.db, () => new Date('2026-03-01T00:00:00Z')).get()
      expect(stats.papers).toEqual({
        total: 0,
        judged: 0,
        aging: 0,
        core: 0,
        tangential: 0,
        preprints: 0,
        open_abstracts: 0,
      })
      expect(stats.stories).toEqual({ published: 0 })
      expect(stats.knowledge).toEqual({ papers_extracted: 0, entities: 0, claims: 0 })
      expect(stats.by_study_type.every((s) => s.papers === 0)).toBe(true)
      expect(stats.by_topic.map((s) => s.papers)).toEqual(Array(11).fill(0))
      expect(stats.coverage).toEqual({ first_indexed: null, last_indexed: null })
      expect(stats.daily.map((d) => d.date).slice(0, 3)).toEqual(['2026-03-01', '2026-02-28', '2026-02-27']) // across the month end
      expect(stats.daily.at(-1)).toEqual({ date: '2026-01-31', papers: 0, aging: 0, preprints: 0 })
      expect(stats.generated_at).toBe('2026-03-01T00:00:00.000Z')
    } finally {
      await empty.close()
    }
  })

  test('concurrent callers of a stale snapshot share one computation', async () => {
    const s = new CorpusSnapshot(database.db, () => clock)
    const calls = [s.get(), s.get(), s.refresh(), s.get()]
    expect(new Set(calls).size).toBe(1)
    const [first] = await Promise.all(calls)
    expect(await s.get()).toBe(first) // fresh now: served from the cache
    const again = s.refresh()
    expect(again).not.toBe(calls[0]) // refresh() always recomputes once the last computation is done
    expect(await again).not.toBe(first)
  })

  test('while a recomputation runs, a stale snapshot is served rather than waited for', async () => {
    let now = new Date('2026-10-10T12:00:00Z')
    const s = new CorpusSnapshot(database.db, () => now)
    const first = await s.get()
    now = new Date('2026-10-10T12:05:00Z')
    const running = s.refresh()
    expect(await s.get()).toBe(first)
    const fresh = await running
    expect(await s.get()).toBe(fresh)
    expect(fresh.stats.generated_at).toBe('2026-10-10T12:05:00.000Z')
  })

  test('a clock that goes backwards recomputes rather than trusting the cache', async () => {
    let now = new Date('2026-10-10T12:00:00Z')
    const s = new CorpusSnapshot(database.db, () => now)
    const first = await s.get()
    now = new Date('2026-10-10T11:59:00Z')
    const second = await s.get()
    expect(second).not.toBe(first)
    expect(second.stats.generated_at).toBe('2026-10-10T11:59:00.000Z')
  })

  test('startRefresh recomputes on a timer until stopped', async () => {
    const s = new CorpusSnapshot(database.db, () => clock) // the injected clock stands still
    const before = (await s.get()).stats.papers.total
    await insertPapers(database.db, [paperRow({ id: 'MED-98', indexedDate: '2026-10-10' })])
    expect((await s.get()).stats.papers.total).toBe(before) // cached
    const stop = s.startRefresh(10)
    try {
      const deadline = Date.now() + 5000
      while ((await s.get()).stats.papers.total === before && Date.now() < deadline) await Bun.sleep(10)
      expect((await s.get()).stats.papers.total).toBe(before + 1)
    } finally {
      stop()
    }
  })
})
