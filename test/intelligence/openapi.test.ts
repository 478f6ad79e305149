/**
 * The intelligence and briefs routes as the admin OpenAPI document will show them: every route
 * described, every parameter and body field declared, and real answers (errors included) valid
 * against the schemas served.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import { computeIntelligence } from '../../src/pipeline/intelligence/refresh'
import { freshDatabase, type TestDatabase } from '../support/database'
import { responseValidator } from '../support/contract'
import { insertPapers, paperRow } from '../support/fixtures'
import { adminApp, call, type AdminApp } from './support'
import { NOW, seedKnowledge } from './fixtures'
import { WEEK, seedWeek } from '../briefs/fixtures'

let database: TestDatabase
let week: TestDatabase // the briefs' own week of papers (its entities overlap seedKnowledge's)
let app: AdminApp
let briefApp: AdminApp
let doc: any // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  database = await freshDatabase()
  week = await freshDatabase()
  await seedKnowledge(database.db)
  // A topic with 20 papers in its first 56 days and none after: a declining-attention gap, with its series.
  await insertPapers(
    database.db,
    Array.from({ length: 20 }, (_, i) =>
      paperRow({
        id: `MED-${500 + i}`,
        topic: 'nad-sirtuins',
        studyType: 'review',
        indexedDate: new Date(Date.parse('2026-08-01T00:00:00Z') + i * 3 * 86_400_000).toISOString().slice(0, 10),
      }),
    ),
  )
  await seedWeek(week.db)
  await computeIntelligence(database, { now: NOW })
  app = adminApp(database)
  briefApp = adminApp(week, { now: () => new Date('2026-11-16T12:00:00Z') })
  doc = (await call(app, '/api/openapi.json')).body
})
afterAll(async () => {
  await database.close()
  await week.close()
})

describe('the admin document for these routes', () => {
  test('is valid OpenAPI 3.1 and describes every route', async () => {
    const result = await new Validator().validate(doc)
    expect(result.errors ?? []).toEqual([])
    const routes = Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
    ) // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(routes.sort()).toEqual([
      'GET /api/briefs',
      'GET /api/briefs/{id}',
      'GET /api/intelligence/charts/contradictions',
      'GET /api/intelligence/charts/gaps',
      'GET /api/intelligence/contradictions',
      'GET /api/intelligence/contradictions/{id}',
      'GET /api/intelligence/gaps',
      'GET /api/intelligence/gaps/{id}',
      'POST /api/generate-brief',
      'POST /api/generate-brief/tag-based',
      'POST /api/intelligence/refresh',
    ])
    for (const route of routes) {
      const [method, path] = route.split(' ') as [string, string]
      const operation = doc.paths[path][method.toLowerCase()]
      expect({ route, summary: Boolean(operation.summary), description: Boolean(operation.description) }).toEqual({
        route,
        summary: true,
        description: true,
      })
      for (const status of ['400', '401', '403', '404', '429', '500', '503'])
        expect({ route, status, ok: Boolean(operation.responses[status]) }).toEqual({ route, status, ok: true })
    }
  })

  test('declares the query parameters each route reads', () => {
    const names = (path: string) => doc.paths[path].get.parameters.map((p: { name: string }) => p.name)
    expect(names('/api/intelligence/contradictions')).toEqual([
      'topic',
      'entity',
      'organism',
      'min_score',
      'since',
      'cursor',
      'limit',
    ])
    expect(names('/api/intelligence/gaps')).toEqual(['kind', 'topic', 'entity', 'min_score', 'cursor', 'limit'])
    expect(names('/api/intelligence/charts/contradictions')).toEqual(names('/api/intelligence/contradictions'))
    expect(names('/api/intelligence/charts/gaps')).toEqual(names('/api/intelligence/gaps'))
    expect(names('/api/briefs')).toEqual(['kind', 'cursor', 'limit'])
    expect(doc.paths['/api/briefs/{id}'].get.parameters).toMatchObject([{ name: 'id', in: 'path', required: true }])
  })

  test('declares the JSON bodies, optional, with their fields and no others', () => {
    const body = doc.paths['/api/generate-brief/tag-based'].post.requestBody
    expect(body.required).toBe(false)
    expect(Object.keys(body.content)).toEqual(['application/json'])
    const schema = body.content['application/json'].schema
    expect(schema.additionalProperties).toBe(false)
    expect(Object.keys(schema.properties).sort()).toEqual([
      'entities',
      'since',
      'source_tags',
      'title',
      'topics',
      'until',
    ])
    expect(schema.properties.topics.items.enum).toContain('glp-1')
  })

  test('matches real answers', async () => {
    const check = responseValidator(doc)
    const list = await call(app, '/api/intelligence/contradictions')
    expect(check('/api/intelligence/contradictions', 200, list.body)).toEqual([])
    const one = await call(app, `/api/intelligence/contradictions/${list.body.data[0].id}`)
    expect(check('/api/intelligence/contradictions/{id}', 200, one.body)).toEqual([])
    const gaps = await call(app, '/api/intelligence/gaps?limit=100')
    expect(gaps.body.data.length).toBeGreaterThan(5)
    expect(check('/api/intelligence/gaps', 200, gaps.body)).toEqual([])
    expect(
      check(
        '/api/intelligence/gaps/{id}',
        200,
        (await call(app, `/api/intelligence/gaps/${gaps.body.data[0].id}`)).body,
      ),
    ).toEqual([])
    expect(
      check(
        '/api/intelligence/charts/contradictions',
        200,
        (await call(app, '/api/intelligence/charts/contradictions')).body,
      ),
    ).toEqual([])
    expect(gaps.body.data.some((g: { series: unknown }) => g.series !== null)).toBe(true)
    const sparklines = (await call(app, '/api/intelligence/charts/gaps?limit=100')).body
    expect(sparklines.data.length).toBeGreaterThan(0)
    expect(check('/api/intelligence/charts/gaps', 200, sparklines)).toEqual([])
    expect(
      check('/api/intelligence/charts/gaps', 400, (await call(app, '/api/intelligence/charts/gaps?kind=x')).body),
    ).toEqual([])
    expect(
      check(
        '/api/intelligence/refresh',
        200,
        (await call(app, '/api/intelligence/refresh', { method: 'POST' })).body,
        'post',
      ),
    ).toEqual([])
    const brief = await call(briefApp, '/api/generate-brief', { json: WEEK })
    expect(check('/api/generate-brief', 201, brief.body, 'post')).toEqual([])
    const tagged = await call(briefApp, '/api/generate-brief/tag-based', {
      json: { ...WEEK, source_tags: ['preprint'] },
    })
    expect(check('/api/generate-brief/tag-based', 201, tagged.body, 'post')).toEqual([])
    expect(check('/api/briefs', 200, (await call(briefApp, '/api/briefs')).body)).toEqual([])
    expect(check('/api/briefs/{id}', 200, (await call(briefApp, `/api/briefs/${brief.body.data.id}`)).body)).toEqual([])
    expect(check('/api/briefs/{id}', 404, (await call(app, '/api/briefs/9999')).body)).toEqual([])
    expect(check('/api/intelligence/gaps', 400, (await call(app, '/api/intelligence/gaps?kind=x')).body)).toEqual([])
    expect(
      check('/api/generate-brief', 400, (await call(app, '/api/generate-brief', { json: { x: 1 } })).body, 'post'),
    ).toEqual([])
  })
})
