import { beforeAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { stories } from '../../../src/db/schema'
import { req, useTestApp } from '../../support/app'
import { bearer, insertPapers, insertStory, paperRow } from '../../support/fixtures'

const api = useTestApp()

const get = async (path: string) => {
  const response = await api.app.handle(req(path, bearer(api.key)))
  return { status: response.status, body: await response.json(), headers: response.headers }
}
const ids = (body: { data: { paper_id: string }[] }) => body.data.map((s) => s.paper_id)

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
const rows = [
  paperRow({ id: 'MED-10', topic: 'senescence', studyType: 'animal', indexedDate: '2026-10-04' }),
  paperRow({ id: 'MED-11', topic: 'glp-1', studyType: 'human_trial' }),
  paperRow({ id: 'MED-12', topic: 'senescence', studyType: 'cells' }),
  paperRow({ id: 'MED-13' }), // mtor-rapamycin, animal
  paperRow({ id: 'MED-14', topic: 'brain-aging', studyType: 'human_observational', abstractLicense: 'cc by-nc' }),
  paperRow({
    id: 'PPR-20',
    source: 'PPR',
    preprint: true,
    journal: 'bioRxiv',
    topic: 'other',
    studyType: 'other',
    relevance: 1.2,
    publicationTypes: ['Preprint'],
  }),
  paperRow({ id: 'MED-15', ...unjudged }),
  paperRow({ id: 'MED-16' }),
  paperRow({ id: 'MED-17' }),
  paperRow({ id: 'MED-19' }),
  paperRow({ id: 'MED-18', topic: 'senescence' }), // no story: never listed
]
// Newest first, ties on published_at by paper_id ascending. MED-17, MED-16 and MED-19 differ only in
// microseconds (all three are .123 in milliseconds); MED-16 and MED-19 are tied to the microsecond.
const ALL = ['MED-17', 'MED-16', 'MED-19', 'MED-10', 'MED-11', 'MED-12', 'MED-13', 'MED-14', 'PPR-20', 'MED-15']

beforeAll(async () => {
  await insertPapers(api.database.db, rows)
  const noon = new Date('2026-10-05T12:00:00Z')
  await insertStory(api.database.db, 'MED-12', { publishedAt: noon, support: null }) // inserted out of order on purpose
  await insertStory(api.database.db, 'MED-10', { publishedAt: noon })
  await insertStory(api.database.db, 'MED-11', { publishedAt: noon })
  await insertStory(api.database.db, 'MED-13', { publishedAt: new Date('2026-10-05T00:00:00Z') })
  await insertStory(api.database.db, 'MED-14', { publishedAt: new Date('2026-10-04T23:59:59.999Z') })
  await insertStory(api.database.db, 'PPR-20', { publishedAt: new Date('2026-10-04T08:00:00Z') })
  await insertStory(api.database.db, 'MED-15', { publishedAt: new Date('2026-10-03T08:00:00Z') })
  for (const [id, at] of [
    ['MED-19', '2026-10-06T09:00:00.123456Z'],
    ['MED-16', '2026-10-06T09:00:00.123456Z'],
    ['MED-17', '2026-10-06T09:00:00.123789Z'],
  ]) {
    await insertStory(api.database.db, id)
    await api.database.db
      .update(stories)
      .set({ publishedAt: sql`${at}::timestamptz` })
      .where(eq(stories.paperId, id))
  }
})

describe('GET /api/v1/stories', () => {
  test('lists every published story newest first, ties by paper_id ascending', async () => {
    const { status, body, headers } = await get('/api/v1/stories')
    expect(status).toBe(200)
    expect(ids(body)).toEqual(ALL)
    expect(body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 25 })
    expect(headers.get('cache-control')).toBe('private, max-age=60')
    expect(headers.get('x-ratelimit-remaining')).not.toBeNull()
  })

  test('serves every field of Story, plus paper_id and paper (a PaperRef, without story)', async () => {
    const { body } = await get('/api/v1/stories?since=2026-10-05&until=2026-10-05&limit=1')
    const row = rows[0]
    expect(body.data[0]).toEqual({
      headline: 'Headline for MED-10',
      dek: 'One sentence that says what was found.',
      body: 'First paragraph.\n\nSecond paragraph.',
      why_it_matters: 'It matters because aging is universal.',
      caveats: 'Animal study in mice.',
      support: 3,
      model: 'geroscope-builtin-1',
      published_at: '2026-10-05T12:00:00.000Z',
      url: 'https://geroscope.test/stories/MED-10',
      paper_id: 'MED-10',
      paper: {
        id: 'MED-10',
        source: 'MED',
        doi: row.doi,
        title: row.title,
        authors: 'Smith A, Jones B, Lee C, et al.',
        journal: 'Aging Cell',
        published_date: '2026-10-01',
        indexed_date: '2026-10-04',
        preprint: false,
        publication_types: ['Journal Article'],
        url: row.url,
        site_url: 'https://geroscope.test/papers/MED-10',
        abstract: row.abstract,
        abstract_license: 'cc by',
        judgement: {
          relevance: 2.6,
          relevance_confidence: 0.9,
          newsworthiness: 1,
          study_type: 'animal',
          study_type_label: 'Animal study',
          study_type_confidence: 0.95,
          topic: 'senescence',
          topic_confidence: 0.8,
          promotional: 0.02,
          model: 'geroscope-builtin-1',
          prompt_version: 'judge-v1',
          judged_at: '2026-10-02T06:00:00.000Z',
        },
      },
    })
    expect(Object.keys(body.data[0].paper)).not.toContain('story')
  })

  test('nulls where the contract allows them: support, unjudged papers, withheld abstracts', async () => {
    const { body } = await get('/api/v1/stories')
    const byId = Object.fromEntries(body.data.map((s: { paper_id: string }) => [s.paper_id, s]))
    expect(byId['MED-12'].support).toBeNull()
    expect(byId['MED-15'].paper.judgement).toBeNull()
    expect(byId['MED-14'].paper).toMatchObject({ abstract: null, abstract_license: 'cc by-nc' })
    expect(byId['PPR-20'].paper).toMatchObject({
      source: 'PPR',
      preprint: true,
      judgement: { relevance: 1.2, topic: 'other' },
    })
    // Microsecond timestamps are served to the millisecond; the order still follows the exact value.
    expect(byId['MED-17'].published_at).toBe('2026-10-06T09:00:00.123Z')
  })

  test('since and until act on the UTC date of published_at, both inclusive', async () => {
    expect(ids((await get('/api/v1/stories?since=2026-10-05')).body)).toEqual(ALL.slice(0, 7))
    expect(ids((await get('/api/v1/stories?until=2026-10-04')).body)).toEqual(['MED-14', 'PPR-20', 'MED-15'])
    expect(ids((await get('/api/v1/stories?since=2026-10-05&until=2026-10-05')).body)).toEqual([
      'MED-10',
      'MED-11',
      'MED-12',
      'MED-13',
    ])
    expect(ids((await get('/api/v1/stories?since=2026-10-06&until=2026-10-06')).body)).toEqual([
      'MED-17',
      'MED-16',
      'MED-19',
    ])
    expect(ids((await get('/api/v1/stories?since=2026-10-07')).body)).toEqual([])
    expect(ids((await get('/api/v1/stories?since=2026-10-05&until=2026-10-04')).body)).toEqual([])
  })

  test('a timestamp in since or until is cut to its UTC date', async () => {
    // 01:00 at +02:00 is 23:00 UTC the day before: since 2026-10-04.
    expect(ids((await get('/api/v1/stories?since=2026-10-05T01:00:00%2B02:00')).body)).toEqual(ALL.slice(0, 9))
    expect(ids((await get('/api/v1/stories?until=2026-10-04T00:00:00Z')).body)).toEqual(['MED-14', 'PPR-20', 'MED-15'])
  })

  test("topic and study_type filter on the paper's judgement; lists take comma-separated values", async () => {
    expect(ids((await get('/api/v1/stories?topic=senescence')).body)).toEqual(['MED-10', 'MED-12'])
    expect(ids((await get('/api/v1/stories?topic=other,glp-1,other')).body)).toEqual(['MED-11', 'PPR-20'])
    expect(ids((await get('/api/v1/stories?topic=mtor-rapamycin')).body)).toEqual([
      'MED-17',
      'MED-16',
      'MED-19',
      'MED-13',
    ])
    expect(ids((await get('/api/v1/stories?topic=reprogramming')).body)).toEqual([])
    expect(ids((await get('/api/v1/stories?study_type=cells,human_trial')).body)).toEqual(['MED-11', 'MED-12'])
    expect(ids((await get('/api/v1/stories?study_type=animal&topic=senescence')).body)).toEqual(['MED-10'])
    expect(ids((await get('/api/v1/stories?study_type=human_observational&until=2026-10-04')).body)).toEqual(['MED-14'])
  })

  test('paging walks the whole list with no duplicates and no gaps, across ties', async () => {
    for (const limit of [1, 2, 3, 4]) {
      const walked: string[] = []
      let cursor: string | null = null
      let pages = 0
      do {
        const { status, body } = await get(
          `/api/v1/stories?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        )
        expect(status).toBe(200)
        walked.push(...ids(body))
        expect(body.pagination.limit).toBe(limit)
        expect(body.pagination.has_more).toBe(body.pagination.next_cursor !== null)
        cursor = body.pagination.next_cursor
        pages++
      } while (cursor)
      expect(walked).toEqual(ALL)
      expect(pages).toBe(Math.ceil(ALL.length / limit))
    }
  })

  test('paging with limit 2 ends pages inside both ties', async () => {
    const first = (await get('/api/v1/stories?limit=2')).body
    expect(ids(first)).toEqual(['MED-17', 'MED-16']) // MED-19 shares MED-16's microsecond
    const second = (await get(`/api/v1/stories?limit=2&cursor=${first.pagination.next_cursor}`)).body
    expect(ids(second)).toEqual(['MED-19', 'MED-10']) // MED-11 and MED-12 share MED-10's instant
    const third = (await get(`/api/v1/stories?limit=2&cursor=${second.pagination.next_cursor}`)).body
    expect(ids(third)).toEqual(['MED-11', 'MED-12'])
  })

  test('paging under a filter keeps the filter', async () => {
    const first = (await get('/api/v1/stories?topic=mtor-rapamycin&limit=3')).body
    expect(ids(first)).toEqual(['MED-17', 'MED-16', 'MED-19'])
    expect(first.pagination.has_more).toBe(true)
    const second = (await get(`/api/v1/stories?topic=mtor-rapamycin&limit=3&cursor=${first.pagination.next_cursor}`))
      .body
    expect(ids(second)).toEqual(['MED-13'])
    expect(second.pagination).toEqual({ next_cursor: null, has_more: false, limit: 3 })
  })

  test('a cursor stays valid while new stories arrive, without duplicates or gaps', async () => {
    const first = (await get('/api/v1/stories?limit=4')).body
    await insertPapers(api.database.db, [paperRow({ id: 'MED-30' }), paperRow({ id: 'MED-09' })])
    await insertStory(api.database.db, 'MED-30', { publishedAt: new Date('2026-10-09T00:00:00Z') }) // newer than the first page
    await insertStory(api.database.db, 'MED-09', { publishedAt: new Date('2026-10-05T12:00:00Z') }) // tied with MED-10, sorts before it
    const second = (await get(`/api/v1/stories?limit=4&cursor=${first.pagination.next_cursor}`)).body
    expect([...ids(first), ...ids(second)]).toEqual(ALL.slice(0, 8))
  })
})
