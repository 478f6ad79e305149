import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { freshDatabase, type TestDatabase } from '../../support/database'
import { createTestKey, insertClaim, insertPapers, linkEntity, paperRow } from '../../support/fixtures'
import { getter, insertCountedEntity, knowledgeApp, walk } from '../../support/fixtures-knowledge'

let database: TestDatabase
let key: string
let get: ReturnType<typeof getter>

// Papers that involve rapamycin: three tied on 2026-10-04, one unjudged, one tangential, one off-topic.
const rows = [
  paperRow({ id: 'MED-201', indexedDate: '2026-10-04', relevance: 3 }),
  paperRow({ id: 'MED-202', indexedDate: '2026-10-04', relevance: 1.5, abstractLicense: 'cc by-nc' }),
  paperRow({
    id: 'PPR-20',
    source: 'PPR',
    indexedDate: '2026-10-04',
    preprint: true,
    journal: 'bioRxiv',
    relevance: 2.2,
    publicationTypes: ['Preprint'],
  }),
  paperRow({
    id: 'MED-203',
    indexedDate: '2026-10-03',
    relevance: null,
    judgedAt: null,
    judgementModel: null,
    judgementPromptVersion: null,
    studyType: null,
    topic: null,
  }),
  paperRow({ id: 'MED-204', indexedDate: '2026-10-02', relevance: 0.5, topic: 'other' }),
  paperRow({ id: 'MED-205', indexedDate: '2026-10-01', relevance: 2.8, abstractLicense: 'cc0' }),
  paperRow({ id: 'MED-206', indexedDate: '2026-10-05', relevance: 2.9 }),
]

const api = 'https://geroscope.test/api/v1/entities'

beforeAll(async () => {
  database = await freshDatabase()
  const db = database.db
  get = getter(await knowledgeApp(database), () => key)
  key = (await createTestKey(db, { tier: 'pro' })).key
  await insertPapers(db, rows)
  // Ranked: 5 (gene, gene, intervention), 3 (hallmark, organism, pathway), 2 (mesh), 1 (biomarker x2, phenotype, tissue).
  const rapamycin = await insertCountedEntity(db, 'intervention', 'CHEBI:9168', 'rapamycin', 5, {
    chebi: 'CHEBI:9168',
    pubchem: '5284616',
  })
  const mtor = await insertCountedEntity(db, 'gene', 'HGNC:3942', 'MTOR', 5, { hgnc: 'HGNC:3942', ncbigene: '2475' })
  await insertCountedEntity(db, 'gene', 'HGNC:7553', 'MYC', 5)
  await insertCountedEntity(db, 'pathway', 'GO:0006914', 'autophagy', 3, { go: 'GO:0006914' })
  await insertCountedEntity(db, 'organism', 'NCBITaxon:10090', 'Mus musculus', 3, { taxon: '10090' })
  await insertCountedEntity(db, 'hallmark', 'cellular-senescence', 'Cellular senescence', 3)
  await insertCountedEntity(db, 'mesh', 'D000375', 'Aging', 2, { mesh: 'D000375' })
  await insertCountedEntity(db, 'tissue', 'muscle/fibre', 'Skeletal muscle \\ fibre', 1)
  await insertCountedEntity(db, 'phenotype', 'lifespan', 'Lifespan', 1)
  await insertCountedEntity(db, 'biomarker', 'il_6', 'Interleukin 6', 1)
  await insertCountedEntity(db, 'biomarker', 'hba1c', 'HbA1c above 6.5%', 1)
  await insertCountedEntity(db, 'gene', 'HGNC:0001', 'UNSEEN', 0)

  await linkEntity(db, 'MED-201', '2026-10-04', rapamycin.id, 'studied', {
    dose: '14 ppm',
    mention: 'rapamycin in the diet',
  })
  await linkEntity(db, 'MED-201', '2026-10-04', rapamycin.id, 'mentioned')
  await linkEntity(db, 'MED-202', '2026-10-04', rapamycin.id, 'studied')
  await linkEntity(db, 'PPR-20', '2026-10-04', rapamycin.id, 'target')
  await linkEntity(db, 'MED-203', '2026-10-03', rapamycin.id, 'mentioned')
  await linkEntity(db, 'MED-204', '2026-10-02', rapamycin.id, 'indexed')
  await linkEntity(db, 'MED-204', '2026-10-02', rapamycin.id, 'context')
  await linkEntity(db, 'MED-204', '2026-10-02', rapamycin.id, 'outcome')
  await linkEntity(db, 'MED-205', '2026-10-01', rapamycin.id, 'studied')
  await linkEntity(db, 'MED-206', '2026-10-05', mtor.id, 'target')

  // claim_count: as subject, as object, and on both sides (counted once); MTOR's and unresolved claims do not count.
  await insertClaim(db, { paperId: 'MED-201', subjectEntityId: rapamycin.id })
  await insertClaim(db, {
    paperId: 'MED-202',
    objectEntityId: rapamycin.id,
    subjectText: 'FKBP12',
    objectText: 'rapamycin',
    relation: 'binds',
  })
  await insertClaim(db, {
    paperId: 'MED-205',
    subjectEntityId: rapamycin.id,
    objectEntityId: rapamycin.id,
    relation: 'associated_with',
  })
  await insertClaim(db, { paperId: 'MED-206', subjectEntityId: mtor.id })
  await insertClaim(db, { paperId: 'MED-206' })
})
afterAll(async () => {
  await database.close()
})

const keys = (body: { data: { type: string; key: string }[] }) => body.data.map((e) => `${e.type}/${e.key}`)

const RANKED = [
  'gene/HGNC:3942',
  'gene/HGNC:7553',
  'intervention/CHEBI:9168',
  'hallmark/cellular-senescence',
  'organism/NCBITaxon:10090',
  'pathway/GO:0006914',
  'mesh/D000375',
  'biomarker/hba1c',
  'biomarker/il_6',
  'phenotype/lifespan',
  'tissue/muscle/fibre',
]

describe('GET /api/v1/entities', () => {
  test('lists entities with papers, most-studied first, then by type, then by key', async () => {
    const { status, body, headers } = await get('/api/v1/entities')
    expect(status).toBe(200)
    expect(keys(body)).toEqual(RANKED)
    expect(body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 25 })
    expect(headers.get('cache-control')).toBe('private, max-age=60')
  })

  test('serves every field of Entity, with an absolute, URL-encoded api_url', async () => {
    const { body } = await get('/api/v1/entities?q=rapamycin')
    expect(body.data).toEqual([
      {
        type: 'intervention',
        key: 'CHEBI:9168',
        name: 'rapamycin',
        ids: { chebi: 'CHEBI:9168', pubchem: '5284616' },
        paper_count: 5,
        api_url: `${api}/intervention/CHEBI%3A9168`,
      },
    ])
    const tissue = (await get('/api/v1/entities?type=tissue')).body.data[0]
    expect(tissue).toEqual({
      type: 'tissue',
      key: 'muscle/fibre',
      name: 'Skeletal muscle \\ fibre',
      ids: {},
      paper_count: 1,
      api_url: `${api}/tissue/muscle%2Ffibre`,
    })
  })

  test('every api_url resolves to its entity', async () => {
    const { body } = await get('/api/v1/entities?limit=100')
    for (const entity of body.data) {
      const detail = await get(new URL(entity.api_url).pathname)
      expect(detail.status).toBe(200)
      expect(detail.body.data).toMatchObject({ type: entity.type, key: entity.key, name: entity.name })
    }
  })

  test('type filters on the entity type', async () => {
    expect(keys((await get('/api/v1/entities?type=gene')).body)).toEqual(['gene/HGNC:3942', 'gene/HGNC:7553'])
    expect(keys((await get('/api/v1/entities?type=mesh')).body)).toEqual(['mesh/D000375'])
    expect((await get('/api/v1/entities?type=disease')).body.data).toEqual([])
  })

  test('q is a case-insensitive substring of the name or the key', async () => {
    expect(keys((await get('/api/v1/entities?q=RAPA')).body)).toEqual(['intervention/CHEBI:9168'])
    expect(keys((await get('/api/v1/entities?q=chebi:9168')).body)).toEqual(['intervention/CHEBI:9168'])
    expect(keys((await get('/api/v1/entities?q=hgnc')).body)).toEqual(['gene/HGNC:3942', 'gene/HGNC:7553'])
    expect(keys((await get('/api/v1/entities?q=mus')).body)).toEqual([
      'organism/NCBITaxon:10090',
      'tissue/muscle/fibre',
    ])
    expect(keys((await get('/api/v1/entities?q=3942&type=gene')).body)).toEqual(['gene/HGNC:3942'])
    expect(keys((await get('/api/v1/entities?q=3942&type=intervention')).body)).toEqual([])
    expect((await get('/api/v1/entities?q=unseen')).body.data).toEqual([]) // paper_count 0 is never listed
  })

  test('q takes %, _ and \\ literally', async () => {
    expect(keys((await get('/api/v1/entities?q=_6')).body)).toEqual(['biomarker/il_6'])
    expect(keys((await get('/api/v1/entities?q=5%25')).body)).toEqual(['biomarker/hba1c'])
    expect(keys((await get('/api/v1/entities?q=%25')).body)).toEqual(['biomarker/hba1c'])
    expect(keys((await get('/api/v1/entities?q=%5C')).body)).toEqual(['tissue/muscle/fibre'])
    expect(keys((await get('/api/v1/entities?q=%5C%20f')).body)).toEqual(['tissue/muscle/fibre'])
    expect((await get('/api/v1/entities?q=H_NC')).body.data).toEqual([])
  })

  test('paging walks the whole list with no duplicates and no gaps, across paper_count ties', async () => {
    for (const limit of [1, 2, 3]) {
      const pages = await walk(get, `/api/v1/entities?limit=${limit}`)
      expect(pages.flatMap(keys)).toEqual(RANKED)
      expect(pages).toHaveLength(Math.ceil(RANKED.length / limit))
      for (const page of pages) {
        expect(page.pagination.limit).toBe(limit)
        expect(page.pagination.has_more).toBe(page.pagination.next_cursor !== null)
      }
    }
  })

  test('paging within a type and a q', async () => {
    expect((await walk(get, '/api/v1/entities?type=biomarker&limit=1')).flatMap(keys)).toEqual([
      'biomarker/hba1c',
      'biomarker/il_6',
    ])
    expect((await walk(get, '/api/v1/entities?q=g&limit=2')).flatMap(keys)).toEqual([
      'gene/HGNC:3942',
      'gene/HGNC:7553',
      'pathway/GO:0006914',
      'mesh/D000375',
    ])
  })

  test('a cursor is good for another limit', async () => {
    const first = (await get('/api/v1/entities?limit=2')).body
    const rest = (await get(`/api/v1/entities?limit=100&cursor=${first.pagination.next_cursor}`)).body
    expect([...keys(first), ...keys(rest)]).toEqual(RANKED)
  })
})

const paperIds = (body: { data: { papers: { id: string }[] } }) => body.data.papers.map((p) => p.id)

describe('GET /api/v1/entities/{type}/{key}', () => {
  test('returns the entity, its claim count and its papers newest first, then by id, each with its roles', async () => {
    const { status, body, headers } = await get('/api/v1/entities/intervention/CHEBI%3A9168')
    expect(status).toBe(200)
    expect(headers.get('cache-control')).toBe('private, max-age=60')
    const { papers, ...entity } = body.data
    expect(entity).toEqual({
      type: 'intervention',
      key: 'CHEBI:9168',
      name: 'rapamycin',
      ids: { chebi: 'CHEBI:9168', pubchem: '5284616' },
      paper_count: 5,
      api_url: `${api}/intervention/CHEBI%3A9168`,
      claim_count: 3,
    })
    expect(papers.map((p: { id: string; roles: string[] }) => [p.id, p.roles])).toEqual([
      ['MED-201', ['mentioned', 'studied']],
      ['MED-202', ['studied']],
      ['PPR-20', ['target']],
      ['MED-203', ['mentioned']],
      ['MED-204', ['context', 'indexed', 'outcome']],
      ['MED-205', ['studied']],
    ])
    expect(body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 25 })
  })

  test('each paper is a full PaperRef plus roles', async () => {
    const { body } = await get('/api/v1/entities/intervention/CHEBI:9168?limit=1')
    const r = rows[0]
    expect(body.data.papers).toEqual([
      {
        id: 'MED-201',
        source: 'MED',
        doi: r.doi,
        title: r.title,
        authors: 'Smith A, Jones B, Lee C, et al.',
        journal: 'Aging Cell',
        published_date: '2026-10-01',
        indexed_date: '2026-10-04',
        preprint: false,
        publication_types: ['Journal Article'],
        url: r.url,
        site_url: 'https://geroscope.test/papers/MED-201',
        abstract: r.abstract,
        abstract_license: 'cc by',
        judgement: {
          relevance: 3,
          relevance_confidence: 0.9,
          newsworthiness: 1,
          study_type: 'animal',
          study_type_label: 'Animal study',
          study_type_confidence: 0.95,
          topic: 'mtor-rapamycin',
          topic_confidence: 0.8,
          promotional: 0.02,
          model: 'geroscope-builtin-1',
          prompt_version: 'judge-v1',
          judged_at: '2026-10-02T06:00:00.000Z',
        },
        roles: ['mentioned', 'studied'],
      },
    ])
    const all = (await get('/api/v1/entities/intervention/CHEBI:9168')).body.data.papers
    expect(all.find((p: { id: string }) => p.id === 'MED-202')).toMatchObject({
      abstract: null,
      abstract_license: 'cc by-nc',
    })
    expect(all.find((p: { id: string }) => p.id === 'MED-203').judgement).toBeNull()
  })

  test('the key is found whether its colon is encoded or not, and a slash in a key travels encoded', async () => {
    expect((await get('/api/v1/entities/intervention/CHEBI:9168')).body.data.key).toBe('CHEBI:9168')
    expect((await get('/api/v1/entities/intervention/CHEBI%3a9168')).body.data.key).toBe('CHEBI:9168')
    expect((await get('/api/v1/entities/tissue/muscle%2Ffibre')).body.data).toMatchObject({
      key: 'muscle/fibre',
      claim_count: 0,
      papers: [],
    })
    expect((await get('/api/v1/entities/biomarker/il_6')).body.data.key).toBe('il_6')
  })

  test('min_relevance filters the papers; any value above 0 leaves unjudged papers out', async () => {
    const papersAt = async (q: string) => paperIds((await get(`/api/v1/entities/intervention/CHEBI:9168?${q}`)).body)
    expect(await papersAt('min_relevance=2')).toEqual(['MED-201', 'PPR-20', 'MED-205'])
    expect(await papersAt('min_relevance=2.5')).toEqual(['MED-201', 'MED-205'])
    expect(await papersAt('min_relevance=1')).toEqual(['MED-201', 'MED-202', 'PPR-20', 'MED-205'])
    expect(await papersAt('min_relevance=0.1')).toEqual(['MED-201', 'MED-202', 'PPR-20', 'MED-204', 'MED-205'])
    expect(await papersAt('min_relevance=0')).toEqual(['MED-201', 'MED-202', 'PPR-20', 'MED-203', 'MED-204', 'MED-205'])
    expect(await papersAt('min_relevance=3')).toEqual(['MED-201'])
    // The filter applies to the papers only: the entity's own numbers stay.
    expect((await get('/api/v1/entities/intervention/CHEBI:9168?min_relevance=3')).body.data).toMatchObject({
      paper_count: 5,
      claim_count: 3,
    })
  })

  test('paging walks the papers with no duplicates and no gaps, the entity on every page', async () => {
    const all = ['MED-201', 'MED-202', 'PPR-20', 'MED-203', 'MED-204', 'MED-205']
    for (const limit of [1, 2, 4]) {
      const pages = await walk(get, `/api/v1/entities/intervention/CHEBI%3A9168?limit=${limit}`)
      expect(pages.flatMap(paperIds)).toEqual(all)
      expect(pages).toHaveLength(Math.ceil(all.length / limit))
      for (const page of pages) expect(page.data).toMatchObject({ key: 'CHEBI:9168', claim_count: 3, paper_count: 5 })
    }
    const filtered = await walk(get, '/api/v1/entities/intervention/CHEBI:9168?min_relevance=1&limit=1')
    expect(filtered.flatMap(paperIds)).toEqual(['MED-201', 'MED-202', 'PPR-20', 'MED-205'])
  })

  test('a cursor made with the key encoded works with the key plain', async () => {
    const first = (await get('/api/v1/entities/intervention/CHEBI%3A9168?limit=2')).body
    const second = (
      await get(`/api/v1/entities/intervention/CHEBI:9168?limit=2&cursor=${first.pagination.next_cursor}`)
    ).body
    expect([...paperIds(first), ...paperIds(second)]).toEqual(['MED-201', 'MED-202', 'PPR-20', 'MED-203'])
  })

  test('an entity with no papers yet is still found', async () => {
    const { status, body } = await get('/api/v1/entities/gene/HGNC:0001')
    expect(status).toBe(200)
    expect(body.data).toMatchObject({ name: 'UNSEEN', paper_count: 0, claim_count: 0, papers: [] })
    expect(body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 25 })
  })

  test('MTOR counts only its own claims and papers', async () => {
    const { body } = await get('/api/v1/entities/gene/HGNC%3A3942')
    expect(body.data).toMatchObject({ claim_count: 1, ids: { hgnc: 'HGNC:3942', ncbigene: '2475' } })
    expect(body.data.papers.map((p: { id: string; roles: string[] }) => [p.id, p.roles])).toEqual([
      ['MED-206', ['target']],
    ])
  })
})
