import { beforeAll, describe, expect, test } from 'bun:test'
import { expectInvalidParameter } from '../../support/expect'
import { req, useTestApp } from '../../support/app'
import { bearer, insertClaim, insertEntity, insertPapers, linkEntity, paperRow } from '../../support/fixtures'

const api = useTestApp()
const get = async (path: string) => {
  const response = await api.app.handle(req(path, bearer(api.key)))
  expect(response.status).toBe(200)
  return response.json()
}

beforeAll(async () => {
  const db = api.database.db
  await insertPapers(db, [
    paperRow({ id: 'MED-1', topic: 'senescence', studyType: 'animal', indexedDate: '2026-09-30' }),
    paperRow({ id: 'MED-2', topic: 'senescence', studyType: 'human', indexedDate: '2026-10-01' }),
    paperRow({ id: 'MED-3', topic: 'mtor-rapamycin', studyType: 'animal', indexedDate: '2026-10-02' }),
    paperRow({
      id: 'PPR-4',
      source: 'PPR',
      preprint: true,
      topic: 'mtor-rapamycin',
      studyType: 'in-vitro',
      indexedDate: '2026-10-03',
    }),
    paperRow({ id: 'MED-5', relevance: 0.5, topic: null, studyType: null, indexedDate: '2026-10-03' }), // off-topic: left out by default
  ])
  const mouse = await insertEntity(db, 'organism', 'NCBITaxon:10090', 'Mus musculus')
  const worm = await insertEntity(db, 'organism', 'NCBITaxon:6239', 'Caenorhabditis elegans')
  await linkEntity(db, 'MED-1', '2026-09-30', mouse.id, 'model')
  await linkEntity(db, 'MED-1', '2026-09-30', mouse.id, 'studied') // two roles: the paper still counts once
  await linkEntity(db, 'MED-3', '2026-10-02', mouse.id, 'model')
  await linkEntity(db, 'MED-3', '2026-10-02', worm.id, 'model')
  await insertClaim(db, { paperId: 'MED-1', relation: 'extends_lifespan', organism: 'Mus musculus' })
  await insertClaim(db, { paperId: 'MED-1', relation: 'extends_lifespan', organism: 'Mus musculus' })
  await insertClaim(db, { paperId: 'MED-3', relation: 'decreases', organism: 'Caenorhabditis elegans' })
  await insertClaim(db, { paperId: 'PPR-4', relation: 'decreases', organism: null })
})

describe('count=true on /papers and /claims', () => {
  test('pagination.total counts every page under the same filters', async () => {
    expect((await get('/api/v1/papers?count=true&limit=1')).pagination).toMatchObject({
      total: 4,
      limit: 1,
      has_more: true,
    })
    expect((await get('/api/v1/papers?count=true&min_relevance=0')).pagination.total).toBe(5)
    expect((await get('/api/v1/papers?count=true&topic=senescence')).pagination.total).toBe(2)
    expect((await get('/api/v1/papers?count=true&preprint=true&since=2026-10-03')).pagination.total).toBe(1)
    expect((await get('/api/v1/papers?count=true&q=rapamycin')).pagination.total).toBe(4)
    expect((await get('/api/v1/claims?count=true&limit=1')).pagination.total).toBe(4)
    expect((await get('/api/v1/claims?count=true&organism=mice')).pagination.total).toBe(2)
    expect((await get('/api/v1/claims?count=true&paper_id=med-3')).pagination.total).toBe(1)
  })

  test('without count=true (or with false) there is no total', async () => {
    expect((await get('/api/v1/papers')).pagination.total).toBeUndefined()
    expect((await get('/api/v1/papers?count=false')).pagination.total).toBeUndefined()
  })

  test('the total stays on later pages', async () => {
    const first = await get('/api/v1/papers?count=true&limit=2')
    const second = await get(`/api/v1/papers?count=true&limit=2&cursor=${first.pagination.next_cursor}`)
    expect(second.pagination.total).toBe(4)
  })
})

describe('group_by on /papers', () => {
  test.each([
    [
      'topic',
      [
        { key: 'mtor-rapamycin', count: 2 },
        { key: 'senescence', count: 2 },
      ],
    ],
    [
      'study_type',
      [
        { key: 'animal', count: 2 },
        { key: 'human', count: 1 },
        { key: 'in-vitro', count: 1 },
      ],
    ],
    [
      'preprint',
      [
        { key: false, count: 3 },
        { key: true, count: 1 },
      ],
    ],
    [
      'indexed_month',
      [
        { key: '2026-10', count: 3 },
        { key: '2026-09', count: 1 },
      ],
    ],
    [
      'organism',
      [
        { key: 'Mus musculus', count: 2 },
        { key: 'Caenorhabditis elegans', count: 1 },
      ],
    ],
    [
      'relation',
      [
        { key: 'decreases', count: 2 },
        { key: 'extends_lifespan', count: 1 },
      ],
    ],
  ])('%s', async (by, groups) => {
    const body = await get(`/api/v1/papers?group_by=${by}`)
    expect(body.group_by).toEqual(groups)
    expect(body.data).toHaveLength(4) // the page is still there
  })

  test('with filters, and a null key for papers without a value', async () => {
    expect((await get('/api/v1/papers?group_by=topic&study_type=animal')).group_by).toEqual([
      { key: 'mtor-rapamycin', count: 1 },
      { key: 'senescence', count: 1 },
    ])
    expect((await get('/api/v1/papers?group_by=topic&min_relevance=0')).group_by).toContainEqual({
      key: null,
      count: 1,
    })
  })
})

describe('group_by on /claims', () => {
  test.each([
    [
      'relation',
      [
        { key: 'decreases', count: 2 },
        { key: 'extends_lifespan', count: 2 },
      ],
    ],
    [
      'organism',
      [
        { key: 'Mus musculus', count: 2 },
        { key: 'Caenorhabditis elegans', count: 1 },
        { key: null, count: 1 },
      ],
    ],
    [
      'topic',
      [
        { key: 'mtor-rapamycin', count: 2 },
        { key: 'senescence', count: 2 },
      ],
    ],
    [
      'preprint',
      [
        { key: false, count: 3 },
        { key: true, count: 1 },
      ],
    ],
  ])('%s', async (by, groups) => {
    expect((await get(`/api/v1/claims?group_by=${by}`)).group_by).toEqual(groups)
  })

  test('with count and a filter', async () => {
    const body = await get('/api/v1/claims?group_by=relation&count=true&relation=decreases')
    expect(body.pagination.total).toBe(2)
    expect(body.group_by).toEqual([{ key: 'decreases', count: 2 }])
  })
})

describe('count and group_by refuse bad values', () => {
  test.each([
    ['/api/v1/papers?count=yes', 'count must be true or false (got "yes")'],
    [
      '/api/v1/papers?group_by=journal',
      'group_by has unknown value "journal"; allowed: topic, study_type, preprint, indexed_month, organism, relation',
    ],
    ['/api/v1/papers?group_by=', 'group_by has unknown value ""'],
    ['/api/v1/papers?group_by=topic,preprint', 'group_by has unknown value "topic,preprint"'],
    ['/api/v1/claims?count=1', 'count must be true or false'],
    ['/api/v1/papers?ids=MED-1&count=true', 'ids cannot be combined with other parameters (got count)'],
    ['/api/v1/stories?count=true', 'unknown parameter "count"'],
  ])('%s', async (path, message) => {
    await expectInvalidParameter(await api.app.handle(req(path, bearer(api.key))), message)
  })
})

describe('estimates say so in the answer', () => {
  test('total_estimated and group_by_estimated appear only when set, beside exact answers unchanged', async () => {
    const { withFacets } = await import('../../../src/modules/v1/facets/params')
    const pagination = { limit: 25, has_more: false, next_cursor: null }
    expect(withFacets(pagination, { total: 3, group_by: [{ key: 'a', count: 3 }] })).toEqual({
      pagination: { ...pagination, total: 3 },
      group_by: [{ key: 'a', count: 3 }],
    })
    expect(
      withFacets(pagination, {
        total: 30000,
        totalEstimated: true,
        group_by: [{ key: 'a', count: 30000 }],
        groupByEstimated: true,
      }),
    ).toEqual({
      pagination: { ...pagination, total: 30000, total_estimated: true },
      group_by: [{ key: 'a', count: 30000 }],
      group_by_estimated: true,
    })
  })

  test('an exact answer through the API has neither flag', async () => {
    const body = await get('/api/v1/papers?count=true&group_by=topic&q=rapamycin')
    expect(body.pagination.total).toBe(4)
    expect('total_estimated' in body.pagination).toBe(false)
    expect('group_by_estimated' in body).toBe(false)
  })
})
