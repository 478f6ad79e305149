import { beforeAll, describe, expect, test } from 'bun:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import { req, useTestApp } from '../support/app'
import { refreshEntityCounts } from '../../src/jobs/refresh-entity-counts'
import { responseValidator } from '../support/contract'
import { bearer, insertClaim, insertEntity, insertPapers, insertStory, linkEntity, paperRow } from '../support/fixtures'

const api = useTestApp()

let doc: any // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  await insertPapers(api.database.db, [
    paperRow({ id: 'MED-1', doi: '10.1000/openapi.1' }),
    paperRow({
      id: 'PPR-2',
      source: 'PPR',
      preprint: true,
      doi: null,
      publishedDate: null,
      abstract: null,
      abstractLicense: null,
    }),
    paperRow({
      id: 'MED-3',
      relevance: null,
      judgedAt: null,
      judgementModel: null,
      judgementPromptVersion: null,
      topic: null,
      studyType: null,
    }),
  ])
  await insertStory(api.database.db, 'MED-1', { support: null })
  const gene = await insertEntity(api.database.db, 'gene', 'HGNC:3942', 'MTOR', { hgnc: 'HGNC:3942' })
  await linkEntity(api.database.db, 'MED-1', '2026-10-02', gene.id, 'target', { effect: 'inhibited' })
  await insertClaim(api.database.db, { paperId: 'MED-1', objectEntityId: gene.id, magnitude: null, context: null })
  await insertClaim(api.database.db, {
    paperId: 'MED-1',
    subjectText: 'MTOR',
    subjectEntityId: gene.id,
    organism: null,
    direction: null,
  })
  await refreshEntityCounts(api.database.db)
  const response = await api.app.handle(req('/api/v1/openapi.json'))
  expect(response.status).toBe(200)
  doc = await response.json()
})

describe('GET /api/v1/openapi.json', () => {
  test('is cacheable like every successful answer', async () => {
    const response = await api.app.handle(req('/api/v1/openapi.json'))
    expect(response.headers.get('cache-control')).toBe('private, max-age=60')
    expect(response.headers.get('x-request-id')).not.toBeNull()
  })

  test('is a valid OpenAPI 3.1 document, served without a key', async () => {
    expect(doc.openapi).toStartWith('3.1')
    const result = await new Validator().validate(doc)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })

  test('declares the bearer security scheme and every parameter with its allowed values and default', async () => {
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' })
    const params = Object.fromEntries(
      doc.paths['/api/v1/papers'].get.parameters.map((p: { name: string }) => [p.name, p]),
    )
    // ids=, updated_since and fields= are documented by operations of their own (GET /papers/batch, /papers/changes, /sparse/papers)
    expect(Object.keys(params).sort()).toEqual([
      'count',
      'cursor',
      'format',
      'group_by',
      'limit',
      'min_relevance',
      'preprint',
      'published_since',
      'published_until',
      'q',
      'since',
      'sort',
      'study_type',
      'topic',
      'until',
    ])
    // the date parameters are strings with the grammar as a pattern (an anyOf of formats typed as unknown in generated clients)
    expect(params.since.schema).toMatchObject({ type: 'string', pattern: expect.any(String) })
    expect(params.since.schema.anyOf).toBeUndefined()
    // (read from a fresh copy: the validator above compiled the document's patterns in place)
    const fresh = await (await api.app.handle(req('/api/v1/openapi.json'))).json()
    const pattern = new RegExp(
      fresh.paths['/api/v1/papers'].get.parameters.find((p: { name: string }) => p.name === 'since').schema.pattern,
    )
    for (const ok of ['2026-11-01', '2026-11-01T09:30:00Z', '2026-11-01T09:30:00.5+02:00', '2026-11-01T09:30+0200'])
      expect({ ok, matches: pattern.test(ok) }).toEqual({ ok, matches: true })
    for (const bad of ['yesterday', '2026-11-1', '2026-11-01T09:30:00', '2026-11-01 09:30Z'])
      expect({ bad, matches: pattern.test(bad) }).toEqual({ bad, matches: false })
    const feed = doc.paths['/api/v1/papers/changes'].get.parameters.find(
      (p: { name: string }) => p.name === 'updated_since',
    )
    expect(feed).toMatchObject({ required: true, schema: { type: 'string', pattern: expect.any(String) } })
    expect(params.sort.schema).toMatchObject({
      enum: ['indexed_date', 'published_date', 'newsworthiness'],
      default: 'indexed_date',
    })
    expect(params.published_since.schema).toEqual(params.since.schema)
    expect(params.limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 25 })
    expect(params.min_relevance.schema).toMatchObject({ minimum: 0, maximum: 3, default: 2 })
    expect(params.topic.schema['x-allowed-values']).toContain('glp-1')
  })

  test('marks /search q and /evidence subject and object as required, and no other query parameter', () => {
    for (const [path, item] of Object.entries(doc.paths) as [string, any][]) {
      // eslint-disable-line @typescript-eslint/no-explicit-any
      const operation = item.get ?? item.post
      const required = operation.parameters
        .filter((p: { in: string; required: boolean }) => p.in === 'query' && p.required)
        .map((p: { name: string }) => p.name)
      const own =
        path === '/api/v1/search' || path === '/api/v1/sparse/search'
          ? ['q']
          : path === '/api/v1/evidence'
            ? ['subject', 'object']
            : path === '/api/v1/papers/batch' || path === '/api/v1/sparse/papers/batch'
              ? ['ids']
              : path.endsWith('/changes') && path !== '/api/v1/changes'
                ? ['updated_since']
                : []
      const expected = path.startsWith('/api/v1/sparse/') ? [...own, 'fields'] : own
      expect({ path, required: required.sort() }).toEqual({ path, required: expected.sort() })
    }
  })

  test("types answers strictly: integers are JSON integers, error codes are the contract's nine", () => {
    const check = responseValidator(doc)
    const page = { data: [], pagination: { next_cursor: null, has_more: false, limit: 25 } }
    expect(check('/api/v1/papers', 200, page)).toEqual([])
    expect(check('/api/v1/papers', 200, { ...page, pagination: { ...page.pagination, limit: '25' } })).not.toEqual([])
    expect(check('/api/v1/papers', 400, { error: { status: 400, code: 'invalid_parameter', message: 'm' } })).toEqual(
      [],
    )
    expect(
      check('/api/v1/papers', 400, { error: { status: '400', code: 'invalid_parameter', message: 'm' } }),
    ).not.toEqual([])
    expect(check('/api/v1/papers', 400, { error: { status: 400, code: 'whatever', message: 'm' } })).not.toEqual([])
    const judgement = doc.components.schemas.Judgement // named; PaperDetail.judgement refers to it
    expect(doc.components.schemas.PaperDetail.properties.judgement.anyOf[0].$ref).toBe('#/components/schemas/Judgement')
    expect(judgement.properties.topic.enum).toContain(null)
    expect(judgement.properties.topic.default).toBeUndefined()
  })

  test('describes every endpoint of the contract, each with the error envelope for the error statuses', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/api/v1/changes',
        '/api/v1/claims',
        '/api/v1/entities',
        '/api/v1/entities/{type}/{key}',
        '/api/v1/evidence',
        '/api/v1/exports',
        '/api/v1/exports/{file}',
        '/api/v1/papers',
        '/api/v1/papers/batch',
        '/api/v1/papers/doi:{doi}',
        '/api/v1/papers/{id}',
        '/api/v1/search',
        '/api/v1/stats',
        '/api/v1/stories',
        '/api/v1/topics',
        // the answers of ids=, updated_since and fields=, each as an operation of its own
        '/api/v1/claims/changes',
        '/api/v1/papers/changes',
        '/api/v1/stories/changes',
        '/api/v1/sparse/claims',
        '/api/v1/sparse/entities',
        '/api/v1/sparse/entities/{type}/{key}',
        '/api/v1/sparse/papers',
        '/api/v1/sparse/papers/batch',
        '/api/v1/sparse/papers/doi:{doi}',
        '/api/v1/sparse/papers/{id}',
        '/api/v1/sparse/search',
        '/api/v1/sparse/stories',
        '/api/v1/sparse/topics',
      ].sort(),
    )
    for (const path of Object.keys(doc.paths)) {
      for (const status of ['400', '401', '403', '404', '429', '500', '503']) {
        const operation = doc.paths[path].get ?? doc.paths[path].post
        expect({ path, status, described: operation.responses[status] !== undefined }).toEqual({
          path,
          status,
          described: true,
        })
      }
    }
  })

  test('matches real responses, nulls included', async () => {
    const check = responseValidator(doc)
    const cases: [string, string, number][] = [
      ['/api/v1/papers?min_relevance=0', '/api/v1/papers', 200],
      ['/api/v1/papers/MED-1', '/api/v1/papers/{id}', 200],
      ['/api/v1/papers/PPR-2', '/api/v1/papers/{id}', 200],
      ['/api/v1/papers/MED-3', '/api/v1/papers/{id}', 200],
      ['/api/v1/papers?limit=0', '/api/v1/papers', 400],
      ['/api/v1/papers/MED-404', '/api/v1/papers/{id}', 404],
      ['/api/v1/papers/batch?ids=MED-1,MED-404,pmid:3', '/api/v1/papers/batch', 200],
      ['/api/v1/sparse/papers/batch?ids=MED-1,MED-404&fields=id,judgement.topic', '/api/v1/sparse/papers/batch', 200],
      ['/api/v1/sparse/papers?fields=id,story.headline&min_relevance=0', '/api/v1/sparse/papers', 200],
      ['/api/v1/sparse/papers/MED-1?fields=claims.subject.entity.name', '/api/v1/sparse/papers/{id}', 200],
      ['/api/v1/sparse/papers?limit=0&fields=id', '/api/v1/sparse/papers', 400],
      ['/api/v1/papers?count=true&group_by=preprint', '/api/v1/papers', 200],
      ['/api/v1/claims?count=true&group_by=organism', '/api/v1/claims', 200],
      ['/api/v1/papers/doi:10.1000/openapi.1', '/api/v1/papers/doi:{doi}', 200],
      ['/api/v1/papers/pmid:1', '/api/v1/papers/{id}', 200],
      ['/api/v1/stories', '/api/v1/stories', 200],
      ['/api/v1/topics', '/api/v1/topics', 200],
      ['/api/v1/stats', '/api/v1/stats', 200],
      ['/api/v1/entities', '/api/v1/entities', 200],
      ['/api/v1/entities/gene/HGNC%3A3942', '/api/v1/entities/{type}/{key}', 200],
      ['/api/v1/entities/gene/HGNC%3A0', '/api/v1/entities/{type}/{key}', 404],
      ['/api/v1/claims', '/api/v1/claims', 200],
      ['/api/v1/search?q=rapamycin', '/api/v1/search', 200],
      ['/api/v1/evidence?subject=HGNC%3A3942&object=lifespan', '/api/v1/evidence', 200],
      ['/api/v1/evidence?subject=mtor&object=lifespan&study_type=animal&organism=mouse', '/api/v1/evidence', 200],
      ['/api/v1/evidence?subject=unobtainium&object=lifespan', '/api/v1/evidence', 404],
      ['/api/v1/evidence?subject=mtor', '/api/v1/evidence', 400],
      ['/api/v1/search', '/api/v1/search', 400],
      ['/api/v1/exports', '/api/v1/exports', 200],
      ['/api/v1/exports/papers-20261124T023000000Z-1a2b3c4d.ndjson.gz', '/api/v1/exports/{file}', 404],
      ['/api/v1/papers/changes?updated_since=2000-01-01', '/api/v1/papers/changes', 200], // unjudged and tangential papers as tombstones
      ['/api/v1/papers/changes?updated_since=2000-01-01&min_relevance=0', '/api/v1/papers/changes', 200],
      ['/api/v1/stories/changes?updated_since=2000-01-01T00:00:00Z&topic=senescence', '/api/v1/stories/changes', 200],
      ['/api/v1/claims/changes?updated_since=2000-01-01&relation=decreases', '/api/v1/claims/changes', 200],
      ['/api/v1/claims/changes', '/api/v1/claims/changes', 400],
      ['/api/v1/changes', '/api/v1/changes', 200],
      ['/api/v1/changes?updated_since=yesterday', '/api/v1/changes', 400],
    ]
    for (const [url, path, status] of cases) {
      const response = await api.app.handle(req(url, bearer(api.key)))
      expect(response.status).toBe(status)
      expect({ url, errors: check(path, status, await response.json()) }).toEqual({ url, errors: [] })
    }
    for (const [ids, status] of [
      [['MED-1', 'doi:10.1000/none', 'PPR-2'], 200],
      [['nonsense'], 400],
    ] as const) {
      const response = await api.app.handle(
        req('/api/v1/papers/batch', {
          method: 'POST',
          headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ids }),
        }),
      )
      expect(response.status).toBe(status)
      expect(check('/api/v1/papers/batch', status, await response.json(), 'post')).toEqual([])
    }
  })
})
