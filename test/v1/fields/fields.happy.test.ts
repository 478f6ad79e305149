import { beforeAll, describe, expect, test } from 'bun:test'
import { refreshEntityCounts } from '../../../src/jobs/refresh-entity-counts'
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
  expect(response.status).toBe(200)
  return response.json()
}

beforeAll(async () => {
  await insertPapers(api.database.db, [
    paperRow({ id: 'MED-1', doi: '10.1000/fields.1' }),
    paperRow({ id: 'MED-2', relevance: null, judgedAt: null, topic: null, studyType: null }),
  ])
  await insertStory(api.database.db, 'MED-1')
  const gene = await insertEntity(api.database.db, 'gene', 'HGNC:3942', 'MTOR', { hgnc: 'HGNC:3942' })
  await linkEntity(api.database.db, 'MED-1', '2026-10-02', gene.id, 'target')
  await insertClaim(api.database.db, { paperId: 'MED-1', objectEntityId: gene.id })
  await refreshEntityCounts(api.database.db)
})

describe('fields= keeps only the fields asked for', () => {
  test('on /papers, top-level and nested, in the order of the full answer, with pagination untouched', async () => {
    const full = await get('/api/v1/papers?min_relevance=0')
    const body = await get('/api/v1/papers?min_relevance=0&fields=judgement.topic,title,id')
    expect(body.pagination).toEqual(full.pagination)
    expect(body.data).toEqual(
      full.data.map((p: { id: string; title: string; judgement: { topic: string } | null }) => ({
        id: p.id,
        title: p.title,
        judgement: p.judgement && { topic: p.judgement.topic },
      })),
    )
    expect(Object.keys(body.data[0])).toEqual(['id', 'title', 'judgement'])
    expect(body.data.find((p: { id: string }) => p.id === 'MED-2').judgement).toBeNull() // a null object stays null
    expect(JSON.stringify(body).length).toBeLessThan(JSON.stringify(full).length / 3)
  })

  test('a whole object wins over a path inside it', async () => {
    const body = await get('/api/v1/papers?fields=judgement.topic,judgement&limit=1')
    expect(Object.keys(body.data[0].judgement).length).toBeGreaterThan(5)
  })

  test('on a paper, into lists of entities and claims', async () => {
    const body = await get('/api/v1/papers/MED-1?fields=id,story.headline,entities.name,claims.relation')
    expect(body).toEqual({
      data: {
        id: 'MED-1',
        story: { headline: 'Headline for MED-1' },
        entities: [{ name: 'MTOR' }],
        claims: [{ relation: 'extends_lifespan' }],
      },
    })
    expect(await get('/api/v1/papers/doi:10.1000/fields.1?fields=id')).toEqual({ data: { id: 'MED-1' } })
    expect(await get('/api/v1/papers/pmid:1?fields=id,doi')).toEqual({ data: { id: 'MED-1', doi: '10.1000/fields.1' } })
  })

  test('on batch answers, nulls kept', async () => {
    expect(await get('/api/v1/papers?ids=MED-1,MED-9&fields=id')).toEqual({
      data: [{ id: 'MED-1' }, null],
      not_found: ['MED-9'],
    })
  })

  test('on /search, /stories, /claims, /entities, an entity and /topics', async () => {
    expect((await get('/api/v1/search?q=rapamycin&fields=id,score')).data[0]).toEqual({
      id: 'MED-1',
      score: expect.any(Number),
    })
    expect((await get('/api/v1/stories?fields=headline,paper.id')).data).toEqual([
      { headline: 'Headline for MED-1', paper: { id: 'MED-1' } },
    ])
    expect((await get('/api/v1/claims?fields=relation,paper.id')).data).toEqual([
      { relation: 'extends_lifespan', paper: { id: 'MED-1' } },
    ])
    expect((await get('/api/v1/entities?fields=key,name')).data).toEqual([{ key: 'HGNC:3942', name: 'MTOR' }])
    const entity = await get('/api/v1/entities/gene/HGNC%3A3942?fields=name,claim_count,papers.id')
    expect(entity.data).toEqual({ name: 'MTOR', claim_count: 1, papers: [{ id: 'MED-1' }] })
    expect(entity.pagination.has_more).toBe(false)
    expect((await get('/api/v1/topics?fields=slug')).data[0]).toEqual({ slug: expect.any(String) })
  })

  test('a cursor stays valid when fields change', async () => {
    const first = await get('/api/v1/papers?min_relevance=0&limit=1&fields=id')
    const second = await get(`/api/v1/papers?min_relevance=0&limit=1&cursor=${first.pagination.next_cursor}`)
    expect(second.data[0].id).not.toBe(first.data[0].id)
  })
})
