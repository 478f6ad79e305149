import { beforeAll, describe, expect, test } from 'bun:test'
import { req, useTestApp } from '../../support/app'
import { bearer, insertPapers, insertStory, paperRow } from '../../support/fixtures'

const api = useTestApp()

const post = (ids: unknown, key = api.key) =>
  api.app.handle(
    req('/api/v1/papers/batch', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ids }),
    }),
  )

beforeAll(async () => {
  await insertPapers(api.database.db, [
    paperRow({ id: 'MED-101', doi: '10.1000/batch.a' }),
    paperRow({ id: 'MED-102', doi: '10.1000/batch.b(2)' }),
    paperRow({ id: 'PPR-103', source: 'PPR', preprint: true, doi: '10.1000/batch.c' }),
    // A preprint and its journal version share a DOI: the DOI names the journal record (MED before PPR).
    paperRow({ id: 'PPR-104', source: 'PPR', preprint: true, doi: '10.1000/shared' }),
    paperRow({ id: 'MED-105', doi: '10.1000/shared' }),
    paperRow({ id: 'MED-106', relevance: 0.5 }), // off-topic papers are found by id too
  ])
  await insertStory(api.database.db, 'MED-101')
})

describe('POST /api/v1/papers/batch', () => {
  test('answers in the order asked, by id, DOI and PMID, with null and not_found for unknown ids', async () => {
    const response = await post([
      'PPR-103',
      'doi:10.1000/BATCH.A',
      'pmid:102',
      'MED-999',
      'med-106',
      'doi:10.1000/nothing',
    ])
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body.data.map((p: { id: string } | null) => p?.id ?? null)).toEqual([
      'PPR-103',
      'MED-101',
      'MED-102',
      null,
      'MED-106',
      null,
    ])
    expect(body.not_found).toEqual(['MED-999', 'doi:10.1000/nothing'])
  })

  test('each entry is a Paper as /papers lists it, story summary included', async () => {
    const body = await (await post(['MED-101'])).json()
    const listed = await (await api.app.handle(req('/api/v1/papers?limit=100', bearer(api.key)))).json()
    expect(body.data[0]).toEqual(listed.data.find((p: { id: string }) => p.id === 'MED-101'))
    expect(body.data[0].story.headline).toBe('Headline for MED-101')
  })

  test('a DOI shared by a preprint and its journal version names the journal version', async () => {
    const body = await (await post(['doi:10.1000/shared'])).json()
    expect(body.data[0].id).toBe('MED-105')
  })

  test('the same id twice is answered twice, so data lines up with ids', async () => {
    const body = await (await post(['MED-101', 'MED-101'])).json()
    expect(body.data.map((p: { id: string }) => p.id)).toEqual(['MED-101', 'MED-101'])
  })

  test('500 ids are one answer', async () => {
    const ids = Array.from({ length: 500 }, (_, i) => (i % 2 ? `MED-${10000 + i}` : 'MED-102'))
    const body = await (await post(ids)).json()
    expect(body.data).toHaveLength(500)
    expect(body.not_found).toHaveLength(250)
  })
})

describe('GET /api/v1/papers?ids=', () => {
  test('gives the batch answer for up to 100 comma-separated ids', async () => {
    const response = await api.app.handle(
      req('/api/v1/papers?ids=pmid:102,MED-404,doi:10.1000%2Fbatch.c', bearer(api.key)),
    )
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body.data.map((p: { id: string } | null) => p?.id ?? null)).toEqual(['MED-102', null, 'PPR-103'])
    expect(body.not_found).toEqual(['MED-404'])
  })
})

describe('GET /api/v1/papers/doi:{doi} and /papers/pmid:{n}', () => {
  test('a DOI with its slash finds the paper, in any case', async () => {
    const response = await api.app.handle(req('/api/v1/papers/doi:10.1000/BATCH.a', bearer(api.key)))
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body.data.id).toBe('MED-101')
    expect(body.data.story.body).toBe('First paragraph.\n\nSecond paragraph.') // the full record
  })

  test('a DOI with its slash percent-encoded, and one with parentheses', async () => {
    for (const path of [
      '/api/v1/papers/doi:10.1000%2Fbatch.a',
      '/api/v1/papers/doi%3A10.1000%2Fbatch.a',
      '/api/v1/papers/doi:10.1000/batch.b(2)',
    ]) {
      const response = await api.app.handle(req(path, bearer(api.key)))
      expect(response.status).toBe(200)
    }
  })

  test('the answer by DOI or PMID is the answer by id', async () => {
    const byId = await (await api.app.handle(req('/api/v1/papers/MED-102', bearer(api.key)))).json()
    const byPmid = await (await api.app.handle(req('/api/v1/papers/pmid:102', bearer(api.key)))).json()
    const byDoi = await (await api.app.handle(req('/api/v1/papers/doi:10.1000/batch.b(2)', bearer(api.key)))).json()
    expect(byPmid).toEqual(byId)
    expect(byDoi).toEqual(byId)
  })

  test('an unknown DOI or PMID is a 404 naming it', async () => {
    for (const [path, message] of [
      ['/api/v1/papers/doi:10.1000/none', 'no paper with "doi:10.1000/none"'],
      ['/api/v1/papers/pmid:7', 'no paper with "pmid:7"'],
    ]) {
      const response = await api.app.handle(req(path, bearer(api.key)))
      expect(response.status).toBe(404)
      expect((await response.json()).error.message).toBe(message)
    }
  })
})
