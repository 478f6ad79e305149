import { beforeAll, describe, expect, test } from 'bun:test'
import { req, useTestApp } from '../../support/app'
import {
  bearer,
  insertClaim,
  insertEntity,
  insertPapers,
  insertStory,
  linkEntity,
  paperRow,
} from '../../support/fixtures'

const api = useTestApp()

const get = async (path: string) => {
  const response = await api.app.handle(req(path, bearer(api.key)))
  return { status: response.status, body: await response.json(), headers: response.headers }
}

// Twelve papers over four days, with relevance from 0 to 3, both sources and several topics; titles for q.
const rows = [
  paperRow({
    id: 'MED-100',
    title: 'Senolytic therapy clears senescent cells in older adults',
    indexedDate: '2026-10-04',
    relevance: 3,
    topic: 'senescence',
    studyType: 'human_trial',
  }),
  paperRow({ id: 'MED-101', indexedDate: '2026-10-04', relevance: 2, topic: 'mtor-rapamycin' }),
  paperRow({
    id: 'PPR-7',
    title: 'Senolytic drugs in a preprint',
    source: 'PPR',
    indexedDate: '2026-10-04',
    preprint: true,
    journal: 'bioRxiv',
    relevance: 2.5,
    publicationTypes: ['Preprint'],
  }),
  paperRow({ id: 'MED-102', indexedDate: '2026-10-03', relevance: 1.5, topic: 'other', abstractLicense: 'cc by-nc' }),
  paperRow({ id: 'MED-103', indexedDate: '2026-10-03', relevance: 0.2, topic: 'other' }),
  paperRow({
    id: 'MED-104',
    indexedDate: '2026-10-03',
    relevance: null,
    judgedAt: null,
    judgementModel: null,
    judgementPromptVersion: null,
    studyType: null,
    topic: null,
  }),
  paperRow({
    id: 'MED-105',
    title: 'GLP-1 agonists and biological age',
    indexedDate: '2026-10-02',
    relevance: 2.2,
    topic: 'glp-1',
    studyType: 'human_observational',
    abstractLicense: null,
  }),
  paperRow({
    id: 'MED-106',
    title: 'Senolytic screening in cell culture',
    indexedDate: '2026-10-02',
    relevance: 2.9,
    topic: 'senescence',
    studyType: 'cells',
    abstractLicense: 'cc0',
  }),
  paperRow({
    id: 'MED-107',
    title: 'Dietary restriction slows senescence',
    indexedDate: '2026-10-01',
    relevance: 2.0,
    topic: 'senescence',
    abstractLicense: 'public domain',
  }),
  paperRow({
    id: 'MED-108',
    title: 'Senescent microglia in the aging brain',
    indexedDate: '2026-10-01',
    relevance: 2.4,
    topic: 'brain-aging',
    abstractLicense: 'cc by-sa',
  }),
  paperRow({
    id: 'PPR-8',
    title: 'Senolytic cocktail in aged mice',
    source: 'PPR',
    indexedDate: '2026-10-01',
    preprint: true,
    relevance: 2.1,
    topic: 'senescence',
    publishedDate: null,
    doi: null,
    url: 'https://europepmc.org/article/PPR/PPR8',
  }),
  paperRow({
    id: 'MED-109',
    title: 'Senolytic dosing',
    indexedDate: '2026-09-30',
    relevance: 1.99,
    topic: 'senescence',
  }),
]

beforeAll(async () => {
  await insertPapers(api.database.db, rows)
  await insertStory(api.database.db, 'MED-100')
  const rapamycin = await insertEntity(api.database.db, 'intervention', 'CHEBI:9168', 'rapamycin', {
    chebi: 'CHEBI:9168',
    pubchem: '5284616',
  })
  const mouse = await insertEntity(api.database.db, 'organism', 'NCBITaxon:10090', 'Mus musculus', { taxon: '10090' })
  await linkEntity(api.database.db, 'MED-100', '2026-10-04', rapamycin.id, 'studied', {
    dose: '14 ppm',
    mention: 'rapamycin in the diet',
    description: 'given from 20 months',
  })
  await linkEntity(api.database.db, 'MED-100', '2026-10-04', mouse.id, 'model', null)
  await linkEntity(api.database.db, 'MED-102', '2026-10-03', rapamycin.id, 'studied', {
    dose: '8 mg/kg',
    mention: 'rapamycin injections',
  })
  await insertClaim(api.database.db, {
    paperId: 'MED-100',
    subjectEntityId: rapamycin.id,
    context: { sex: 'male', n: 40 },
  })
  await insertClaim(api.database.db, {
    paperId: 'MED-102',
    subjectEntityId: rapamycin.id,
    objectText: 'frailty index',
    relation: 'decreases',
    direction: 'decrease',
    context: {},
  })
})

const ids = (body: { data: { id: string }[] }) => body.data.map((p) => p.id)

describe('GET /api/v1/papers', () => {
  test('lists aging papers (relevance 2 or more) newest first, then by id', async () => {
    const { status, body, headers } = await get('/api/v1/papers')
    expect(status).toBe(200)
    expect(ids(body)).toEqual(['MED-100', 'MED-101', 'PPR-7', 'MED-105', 'MED-106', 'MED-107', 'MED-108', 'PPR-8'])
    expect(body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 25 })
    expect(headers.get('cache-control')).toBe('private, max-age=60')
    expect(headers.get('vary')).toContain('Authorization')
  })

  test('serves every field of Paper, with the judgement and story summary', async () => {
    const { body } = await get('/api/v1/papers?limit=1')
    expect(body.data[0]).toEqual({
      id: 'MED-100',
      source: 'MED',
      doi: rows[0].doi,
      title: rows[0].title,
      authors: 'Smith A, Jones B, Lee C, et al.',
      journal: 'Aging Cell',
      published_date: '2026-10-01',
      indexed_date: '2026-10-04',
      preprint: false,
      publication_types: ['Journal Article'],
      url: rows[0].url,
      site_url: 'https://geroscope.test/papers/MED-100',
      abstract: rows[0].abstract,
      abstract_license: 'cc by',
      judgement: {
        relevance: 3,
        relevance_confidence: 0.9,
        newsworthiness: 1,
        study_type: 'human_trial',
        study_type_label: 'Human trial',
        study_type_confidence: 0.95,
        topic: 'senescence',
        topic_confidence: 0.8,
        promotional: 0.02,
        model: 'geroscope-builtin-1',
        prompt_version: 'judge-v1',
        judged_at: '2026-10-02T06:00:00.000Z',
      },
      story: {
        headline: 'Headline for MED-100',
        dek: 'One sentence that says what was found.',
        url: 'https://geroscope.test/stories/MED-100',
      },
    })
  })

  test('min_relevance=1 adds tangential papers and 0 returns every paper read, unjudged included', async () => {
    expect(ids((await get('/api/v1/papers?min_relevance=1')).body)).toContain('MED-102')
    expect(ids((await get('/api/v1/papers?min_relevance=1')).body)).not.toContain('MED-103')
    const all = ids((await get('/api/v1/papers?min_relevance=0')).body)
    expect(all).toHaveLength(rows.length)
    expect(all).toContain('MED-104')
    expect(ids((await get('/api/v1/papers?min_relevance=2.5')).body)).toEqual(['MED-100', 'PPR-7', 'MED-106'])
  })

  test('since and until act on indexed_date, inclusive; a timestamp is cut to its UTC date', async () => {
    expect(ids((await get('/api/v1/papers?since=2026-10-02&until=2026-10-03')).body)).toEqual(['MED-105', 'MED-106'])
    expect(ids((await get('/api/v1/papers?since=2026-10-04T23:30:00%2B02:00')).body)).toEqual([
      'MED-100',
      'MED-101',
      'PPR-7',
    ])
    expect((await get('/api/v1/papers?since=2026-10-05&until=2026-10-01')).body.data).toEqual([])
  })

  test('study_type, topic and preprint filter, lists take comma-separated values', async () => {
    expect(ids((await get('/api/v1/papers?topic=senescence')).body)).toEqual(['MED-100', 'MED-106', 'MED-107', 'PPR-8'])
    expect(ids((await get('/api/v1/papers?topic=glp-1,brain-aging,glp-1')).body)).toEqual(['MED-105', 'MED-108'])
    expect(ids((await get('/api/v1/papers?study_type=cells,human_trial')).body)).toEqual(['MED-100', 'MED-106'])
    expect(ids((await get('/api/v1/papers?preprint=true')).body)).toEqual(['PPR-7', 'PPR-8'])
    expect(ids((await get('/api/v1/papers?preprint=false&topic=senescence')).body)).toEqual([
      'MED-100',
      'MED-106',
      'MED-107',
    ])
  })

  test('abstracts are served only under cc by, cc0 or public domain', async () => {
    const { body } = await get('/api/v1/papers?min_relevance=0&limit=100')
    const byId = Object.fromEntries(body.data.map((p: { id: string }) => [p.id, p]))
    for (const id of ['MED-100', 'MED-106', 'MED-107']) expect(byId[id].abstract).toStartWith('Rapamycin')
    expect(byId['MED-102']).toMatchObject({ abstract: null, abstract_license: 'cc by-nc' })
    expect(byId['MED-108']).toMatchObject({ abstract: null, abstract_license: 'cc by-sa' })
    expect(byId['MED-105']).toMatchObject({ abstract: null, abstract_license: null })
    expect(byId['MED-104'].judgement).toBeNull()
    expect(byId['PPR-8']).toMatchObject({ doi: null, published_date: null, story: null })
  })

  test('paging walks the whole list with no duplicates and no gaps', async () => {
    const all = ids((await get('/api/v1/papers?min_relevance=0&limit=100')).body)
    const walked: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const { body } = await get(
        `/api/v1/papers?min_relevance=0&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      )
      walked.push(...ids(body))
      expect(body.pagination.limit).toBe(2)
      expect(body.pagination.has_more).toBe(body.pagination.next_cursor !== null)
      cursor = body.pagination.next_cursor
      pages++
    } while (cursor)
    expect(walked).toEqual(all)
    expect(pages).toBe(6)
  })

  test('a cursor stays valid while new papers arrive, without duplicates or gaps', async () => {
    const first = (await get('/api/v1/papers?limit=3')).body
    await insertPapers(api.database.db, [
      paperRow({ id: 'MED-099', indexedDate: '2026-10-04', relevance: 2.8 }),
      paperRow({ id: 'MED-200', indexedDate: '2026-10-09' }),
    ])
    const second = (await get(`/api/v1/papers?limit=3&cursor=${first.pagination.next_cursor}`)).body
    expect([...ids(first), ...ids(second)]).toEqual(['MED-100', 'MED-101', 'PPR-7', 'MED-105', 'MED-106', 'MED-107'])
  })
})

describe('GET /api/v1/papers?q=', () => {
  const search = async (query: string) => ids((await get(`/api/v1/papers?${query}`)).body)

  test('keeps only matching papers, newest first as without q', async () => {
    expect(await search('q=senolytic')).toEqual(['MED-100', 'PPR-7', 'MED-106', 'PPR-8'])
    expect(await search('q=SENOLYTICS&min_relevance=1')).toEqual(['MED-100', 'PPR-7', 'MED-106', 'PPR-8', 'MED-109'])
    expect(await search('q=glp1')).toEqual(['MED-105'])
  })

  test('reads quoted phrases, OR (AND binds tighter) and -exclusions', async () => {
    expect(await search('q=%22cell%20culture%22')).toEqual(['MED-106'])
    expect(await search('q=%22therapy%20senolytic%22')).toEqual([])
    expect(await search('q=glp-1%20OR%20%22dietary%20restriction%22')).toEqual(['MED-105', 'MED-107'])
    // (senolytic AND preprint) OR (dietary AND restriction)
    expect(await search('q=senolytic%20preprint%20or%20dietary%20restriction')).toEqual(['PPR-7', 'MED-107'])
    expect(await search('q=senolytic%20-preprint')).toEqual(['MED-100', 'MED-106', 'PPR-8'])
    expect(await search('q=senolytic%20-%22cell%20culture%22')).toEqual(['MED-100', 'PPR-7', 'PPR-8'])
  })

  test('combines with every other filter', async () => {
    expect(await search('q=senolytic&preprint=true')).toEqual(['PPR-7', 'PPR-8'])
    expect(await search('q=senolytic&since=2026-10-02&study_type=cells')).toEqual(['MED-106'])
    expect(await search('q=senolytic&topic=senescence&until=2026-10-03')).toEqual(['MED-106', 'PPR-8'])
    expect(await search('q=senolytic&min_relevance=2.5')).toEqual(['MED-100', 'PPR-7', 'MED-106'])
  })

  test('pages through the matches by cursor', async () => {
    const walked: string[] = []
    let cursor: string | null = null
    do {
      const { body } = await get(
        `/api/v1/papers?q=senolytic&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      )
      walked.push(...ids(body))
      cursor = body.pagination.next_cursor
    } while (cursor)
    expect(walked).toEqual(['MED-100', 'PPR-7', 'MED-106', 'PPR-8'])
  })
})

describe('GET /api/v1/papers/{id}', () => {
  test('returns the full record with story, upvotes, entities and claims', async () => {
    const { status, body } = await get('/api/v1/papers/MED-100')
    expect(status).toBe(200)
    const paper = body.data
    expect(paper.id).toBe('MED-100')
    expect(paper.story).toEqual({
      headline: 'Headline for MED-100',
      dek: 'One sentence that says what was found.',
      body: 'First paragraph.\n\nSecond paragraph.',
      why_it_matters: 'It matters because aging is universal.',
      caveats: 'Animal study in mice.',
      support: 3,
      model: 'geroscope-builtin-1',
      published_at: '2026-10-03T08:00:00.000Z',
      url: 'https://geroscope.test/stories/MED-100',
    })
    expect(paper.upvotes).toBe(0)
    expect(paper.entities).toEqual([
      {
        type: 'intervention',
        key: 'CHEBI:9168',
        name: 'rapamycin',
        ids: { chebi: 'CHEBI:9168', pubchem: '5284616' },
        role: 'studied',
        detail: { dose: '14 ppm', mention: 'rapamycin in the diet', description: 'given from 20 months' },
      },
      {
        type: 'organism',
        key: 'NCBITaxon:10090',
        name: 'Mus musculus',
        ids: { taxon: '10090' },
        role: 'model',
        detail: null,
      },
    ])
    expect(paper.claims).toHaveLength(1)
    expect(paper.claims[0]).toMatchObject({
      paper_id: 'MED-100',
      relation: 'extends_lifespan',
      organism: 'Mus musculus',
      direction: 'increase',
      magnitude: '12%',
      subject: { text: 'rapamycin', entity: { type: 'intervention', key: 'CHEBI:9168', name: 'rapamycin' } },
      object: { text: 'lifespan', entity: null },
      context: { sex: 'male', n: 40 },
      evidence: 'Rapamycin extended median lifespan by 12% in male mice.',
      confidence: 0.8,
      created_at: '2026-10-02T06:05:00.000Z',
    })
  })

  test('withholds evidence, mention and description when the licence does not allow reuse', async () => {
    const { body } = await get('/api/v1/papers/MED-102')
    expect(body.data.abstract).toBeNull()
    expect(body.data.entities[0].detail).toEqual({ dose: '8 mg/kg' })
    expect(body.data.claims[0]).toMatchObject({
      evidence: null,
      context: null,
      object: { text: 'frailty index', entity: null },
    })
  })

  test('accepts the id case-insensitively', async () => {
    expect((await get('/api/v1/papers/med-100')).body.data.id).toBe('MED-100')
    expect((await get('/api/v1/papers/ppr-7')).body.data.id).toBe('PPR-7')
  })

  test('answers 404 not_found for an unknown or malformed id', async () => {
    for (const id of ['MED-999999', 'PMC-1', 'MED-', 'x%27%20or%201%3D1']) {
      const { status, body } = await get(`/api/v1/papers/${id}`)
      expect(status).toBe(404)
      expect(body.error.code).toBe('not_found')
    }
  })
})
