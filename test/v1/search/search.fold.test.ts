/**
 * /search and /papers?q= through the API on the PostgreSQL backend: they match over title and
 * abstract only, fold what people mean (plurals, spellings, NAD+), and every hit of /search can be
 * paged to, with the pagination saying the ranking was not cut.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { req, useTestApp } from '../../support/app'
import { responseValidator } from '../../support/contract'
import { bearer, insertPapers, paperRow } from '../../support/fixtures'

const api = useTestApp()

const get = async (path: string) => {
  const response = await api.app.handle(req(path, bearer(api.key)))
  return { status: response.status, body: await response.json() }
}
const ids = (body: { data: { id: string }[] }) => body.data.map((p) => p.id)
const DEEP = 1_050 // past the 300 hits /search once stopped at, and past Meilisearch's 1,000

beforeAll(async () => {
  await insertPapers(api.database.db, [
    paperRow({ id: 'MED-71', title: 'Caloric restriction in old mice', abstract: 'Lifespan rose with restriction.' }),
    paperRow({ id: 'MED-72', title: 'Healthy aging in centenarians', abstract: 'A cohort study.' }),
    paperRow({ id: 'MED-73', title: 'NAD precursors in muscle', abstract: 'Riboside raised NAD levels.' }),
    paperRow({ id: 'MED-74', title: 'NADH oxidase activity', abstract: 'An enzyme of the liver.' }),
    paperRow({ id: 'MED-75', title: 'Tumor growth slows', abstract: 'Fewer tumors in the treated group.' }),
    paperRow({ id: 'MED-77', title: 'Heme oxygenase in the kidney', abstract: 'Free heme was raised.' }),
    paperRow({
      id: 'MED-78',
      title: 'Nicotinamide riboside in muscle',
      abstract: 'NAD+ levels rose with supplementation.',
    }),
    paperRow({
      id: 'MED-76',
      title: 'Cell biology of the liver',
      abstract: 'Nothing else is said here.',
      keywords: ['zebrafish'],
      meshHeadings: [{ descriptor: 'Sirtuins', major: true, qualifiers: [] }],
    }),
    ...Array.from({ length: DEEP }, (_, i) =>
      paperRow({
        id: `MED-${700000 + i}`,
        title: i % 40 === 3 ? `Klotho and kidney ${i}` : `A cohort ${i}`,
        abstract: `Serum klotho was measured (${i}).`,
        relevance: (200 + (i % 97)) / 100,
      }),
    ),
  ])
})

describe('what q matches', () => {
  test.each(['/api/v1/search', '/api/v1/papers'])('%s?q=mouse finds a paper that only says "mice"', async (path) => {
    expect(ids((await get(`${path}?q=mouse`)).body)).toEqual(['MED-71'])
  })

  test.each(['/api/v1/papers', '/api/v1/search'])('%s?q=ageing finds a paper that only says "aging"', async (path) => {
    expect(ids((await get(`${path}?q=ageing`)).body)).toEqual(['MED-72'])
  })

  test.each(['/api/v1/search', '/api/v1/papers'])('%s?q=tumour finds "tumor" and "tumors"', async (path) => {
    expect(ids((await get(`${path}?q=tumour`)).body)).toEqual(['MED-75'])
  })

  test.each(['/api/v1/search', '/api/v1/papers'])('%s: NAD+ finds NAD, and NADH stays apart', async (path) => {
    expect(ids((await get(`${path}?q=${encodeURIComponent('NAD+')}`)).body).sort()).toEqual(['MED-73', 'MED-78'])
    expect(ids((await get(`${path}?q=NADH`)).body)).toEqual(['MED-74'])
  })

  test.each(['/api/v1/search', '/api/v1/papers'])('%s?q=haem finds a paper that only says "heme"', async (path) => {
    expect(ids((await get(`${path}?q=haem`)).body)).toEqual(['MED-77'])
  })

  test.each(['/api/v1/search', '/api/v1/papers'])('%s?q=NAD finds a paper that says "NAD+"', async (path) => {
    expect(ids((await get(`${path}?q=NAD`)).body).sort()).toEqual(['MED-73', 'MED-78'])
  })

  test.each(['/api/v1/search', '/api/v1/papers'])(
    '%s: a paper whose only match is a keyword or a MeSH heading is no hit',
    async (path) => {
      for (const q of ['zebrafish', 'sirtuins']) {
        const { status, body } = await get(`${path}?q=${q}&min_relevance=0`)
        expect({ q, status, ids: ids(body) }).toEqual({ q, status: 200, ids: [] })
      }
    },
  )
})

describe('depth', () => {
  test(`every one of ${DEEP} hits is reached by cursor, once, and no page says the list was cut`, async () => {
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const { status, body } = await get(
        `/api/v1/search?q=klotho&min_relevance=0&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      )
      expect(status).toBe(200)
      expect(body.pagination).toMatchObject({ truncated: false, limit: 100 })
      expect(body.pagination.max_hits).toBeUndefined()
      seen.push(...ids(body))
      cursor = body.pagination.next_cursor
      expect(body.pagination.has_more).toBe(cursor !== null)
      pages++
    } while (cursor)
    expect(pages).toBe(11)
    expect(seen.length).toBe(DEEP)
    expect(new Set(seen).size).toBe(DEEP)
  })

  test('the pagination fields are in the OpenAPI document, and answers match it', async () => {
    const doc = (await get('/api/v1/openapi.json')).body
    const validate = responseValidator(doc)
    const { body } = await get('/api/v1/search?q=klotho&min_relevance=0&limit=5')
    expect(validate('/api/v1/search', 200, body)).toEqual([])
    const { $ref } =
      doc.paths['/api/v1/search'].get.responses['200'].content['application/json'].schema.properties.pagination
    const pagination = doc.components.schemas[$ref.split('/').pop()] // named SearchPagination
    expect(Object.keys(pagination.properties)).toEqual(expect.arrayContaining(['truncated', 'max_hits']))
    expect(pagination.required).toContain('truncated')
    expect(
      validate('/api/v1/search', 200, { ...body, pagination: { ...body.pagination, truncated: true, max_hits: 1000 } }),
    ).toEqual([])
  })
})
