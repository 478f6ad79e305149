/**
 * Papers withdrawn at the source. When a harvest finds a paper retracted (MEDLINE's "Retracted
 * Publication", a "RETRACTED:" title) or withdrawn ("WITHDRAWN:"), the paper leaves the service with
 * its story and claims, mirrors following the change feed get tombstones saying "withdrawn", and a
 * later record of it does not bring it back. A retraction notice is an ordinary paper.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { parseConfig } from '../../src/config'
import { harvestEuropePmc } from '../../src/pipeline/ingest/europepmc/harvest'
import type { EuropePmcRecord } from '../../src/pipeline/ingest/europepmc/record'
import { withdrawalOf } from '../../src/pipeline/ingest/europepmc/store'
import { req, useTestApp } from '../support/app'
import { bearer, insertClaim, insertStory } from '../support/fixtures'
import { replayServer, type ReplayServer } from '../support/replay-server'

const api = useTestApp()

const record = (n: number, extra: Partial<EuropePmcRecord> = {}): EuropePmcRecord => ({
  id: String(n),
  source: 'MED',
  pmid: String(n),
  doi: `10.1000/W.${n}`,
  title: `Paper ${n} on senescence`,
  authorString: 'Smith A, Jones B.',
  firstIndexDate: '2026-11-10',
  firstPublicationDate: '2026-11-01',
  journalInfo: { journal: { title: 'Aging Cell' } },
  abstractText: `<p>Senolytics ${n} cleared cells.</p>`,
  license: 'CC BY',
  pubTypeList: { pubType: ['research-article'] },
  ...extra,
})
let records: EuropePmcRecord[] = []
const server: ReplayServer = replayServer(
  () =>
    new Response(JSON.stringify({ hitCount: records.length, resultList: { result: records } }), {
      headers: { 'content-type': 'application/json' },
    }),
)
afterAll(() => server.stop())
const harvest = (list: EuropePmcRecord[]) => {
  records = list
  return harvestEuropePmc(api.database, parseConfig({ EUROPEPMC_BASE_URL: server.url, EUROPEPMC_QUERY: 'aging' }), {
    since: '2026-11-01',
    until: '2026-11-20',
  })
}

const get = async (path: string) => {
  const response = await api.app.handle(req(path, bearer(api.key)))
  return {
    status: response.status,
    body: (await response.json()) as { data: Record<string, unknown>[]; pagination: { resume_cursor: string } },
  }
}

describe('what counts as withdrawn', () => {
  test.each([
    [['Journal Article', 'Retracted Publication'], 'Paper on senescence', 'retracted'],
    [['Journal Article'], 'RETRACTED: Paper on senescence', 'retracted'],
    [['Journal Article'], 'Retracted Article: Paper on senescence', 'retracted'],
    [['Review'], 'WITHDRAWN: Exercise for older adults', 'withdrawn'],
    [['Retraction of Publication'], 'Retraction notice to "Paper on senescence"', null], // the notice, not the paper
    [['Journal Article'], 'Withdrawn tissue samples in aged mice', null], // a word, not the prefix
  ] as const)('%p, %p: %p', (publicationTypes, title, expected) => {
    expect(withdrawalOf({ publicationTypes: [...publicationTypes], title })).toBe(expected)
  })
})

describe('a paper withdrawn at the source', () => {
  test('leaves with its story and claims, and the feed says withdrawn', async () => {
    expect(await harvest([record(1), record(2), record(3)])).toMatchObject({ inserted: 3, withdrawn: 0 })
    const db = api.database.db
    await db.execute(
      sql`update papers set relevance = 2.5, topic = 'senescence', study_type = 'animal', judged_at = now()`,
    )
    await insertStory(db, 'MED-1')
    await insertClaim(db, { paperId: 'MED-1', relation: 'extends_lifespan', organism: 'mice' })
    const papersBefore = (await get('/api/v1/papers?updated_since=2000-01-01T00:00:00Z')).body.pagination.resume_cursor
    const storiesBefore = (await get('/api/v1/stories?updated_since=2000-01-01T00:00:00Z')).body.pagination
      .resume_cursor

    const counts = await harvest([
      record(1, { pubTypeList: { pubType: ['research-article', 'Retracted Publication'] } }),
      record(2, { title: 'WITHDRAWN: Paper 2 on senescence' }),
      record(3),
      record(4, {
        title: 'Retraction notice to "Paper 1 on senescence"',
        pubTypeList: { pubType: ['retraction of publication'] },
      }),
    ])
    expect(counts).toMatchObject({ withdrawn: 2, inserted: 1, unchanged: 1 })
    expect(await api.database.rows(sql`select id from papers order by id`)).toEqual([{ id: 'MED-3' }, { id: 'MED-4' }])
    expect(await api.database.rows(sql`select id, reason from withdrawn_papers order by id`)).toEqual([
      { id: 'MED-1', reason: 'retracted' },
      { id: 'MED-2', reason: 'withdrawn' },
    ])
    expect(await api.database.rows(sql`select count(*)::int as n from claims`)).toEqual([{ n: 0 }])
    expect((await get('/api/v1/papers/MED-1')).status).toBe(404)

    const papers = (
      await get(`/api/v1/papers?updated_since=2000-01-01T00:00:00Z&cursor=${encodeURIComponent(papersBefore)}`)
    ).body.data
    // (MED-4, new and not judged yet, is below the default min_relevance: excluded, as any such paper.)
    expect(
      papers
        .filter((p) => p.deleted)
        .map((p) => [p.id, p.reason])
        .sort(),
    ).toEqual([
      ['MED-1', 'withdrawn'],
      ['MED-2', 'withdrawn'],
      ['MED-4', 'excluded'],
    ])
    const stories = (
      await get(`/api/v1/stories?updated_since=2000-01-01T00:00:00Z&cursor=${encodeURIComponent(storiesBefore)}`)
    ).body.data
    expect(stories.map((s) => [s.paper_id, s.reason])).toEqual([['MED-1', 'withdrawn']])
  })

  test('is not stored again by a later record of it', async () => {
    expect(await harvest([record(1), record(2), record(3)])).toMatchObject({ inserted: 0, withdrawn: 0, unchanged: 1 })
    expect(await api.database.rows(sql`select id from papers order by id`)).toEqual([{ id: 'MED-3' }, { id: 'MED-4' }])
  })

  test('on a page the database refuses in bulk, the withdrawal is undone with the page and done again record by record', async () => {
    await harvest([record(6)])
    // Distinct words enough to make the search vector bigger than PostgreSQL's 1 MB: the database refuses that row alone.
    const huge = Array.from(
      { length: 100_000 },
      (_, i) => `w${((i * 2654435761) % 4294967296).toString(16).padStart(8, '0')}${i}`,
    ).join(' ')
    const counts = await harvest([
      record(6, { title: 'RETRACTED: Paper 6 on senescence' }),
      record(7, { abstractText: huge }),
    ])
    expect(counts).toMatchObject({ withdrawn: 1, inserted: 0, skipped: 1 })
    expect(await api.database.rows(sql`select id from papers where id in ('MED-6', 'MED-7')`)).toEqual([])
    expect(await api.database.rows(sql`select id, reason from withdrawn_papers where id = 'MED-6'`)).toEqual([
      { id: 'MED-6', reason: 'retracted' },
    ])
  })

  test('taken out of a paper already listed in the same harvest page, by its last version', async () => {
    const counts = await harvest([record(5), record(5, { title: 'RETRACTED: Paper 5 on senescence' })])
    expect(counts).toMatchObject({ inserted: 0, withdrawn: 1 })
    expect(await api.database.rows(sql`select id from papers where id = 'MED-5'`)).toEqual([])
  })
})
