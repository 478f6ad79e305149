import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { rssSources } from '../../src/db/schema'
import { freshAddress, useAdminApp } from '../support/admin'
import { insertPapers, paperRow } from '../support/fixtures'
import { replayServer, type ReplayServer } from '../support/replay-server'

const api = useAdminApp({ SCRAPE_ALLOW_PRIVATE: 'on' })

let doc: any // eslint-disable-line @typescript-eslint/no-explicit-any
let feeds: ReplayServer
beforeAll(async () => {
  feeds = replayServer(
    () =>
      new Response(
        '<rss version="2.0"><channel><item><title>T</title><link>https://a.test/oa</link></item></channel></rss>',
      ),
  )
  const response = await api.call('/api/openapi.json')
  expect(response.status).toBe(200)
  doc = await response.json()
})
afterAll(async () => {
  await feeds.stop()
})

/** Checks a body against the schema the document gives for this method, path and status. */
function validator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema({ $id: 'doc', components: doc.components ?? {} })
  return (method: string, path: string, status: number, body: unknown): string[] => {
    const schema =
      doc.paths[path]?.[method.toLowerCase()]?.responses?.[String(status)]?.content?.['application/json']?.schema
    if (!schema) return [`the document has no ${status} JSON response for ${method} ${path}`]
    const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')))
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)
  }
}

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, any>).map(([method, operation]) => ({ path, method, operation })),
  ) // eslint-disable-line @typescript-eslint/no-explicit-any

describe('GET /api/openapi.json', () => {
  test('is a valid OpenAPI 3.1 document, served without a session and not cached', async () => {
    expect(doc.openapi).toStartWith('3.1')
    const result = await new Validator().validate(doc)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    const response = await api.call('/api/openapi.json')
    expect(response.headers.get('cache-control')).toBe('no-store')
  })

  test('describes exactly the admin routes, none of the Data API', () => {
    const documented = operations()
      .map((o) => `${o.method.toUpperCase()} ${o.path}`)
      .sort()
    const routes = api.app.routes
      .filter(
        (r) =>
          r.path.startsWith('/api/') &&
          !r.path.startsWith('/api/v1') &&
          r.path !== '/api/openapi.json' &&
          r.path !== '/api/docs' &&
          r.method !== 'OPTIONS',
      )
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`)
      .sort()
    expect(documented).toEqual(routes)
    expect(documented).toContain('POST /api/auth/login')
  })

  test('declares the session cookie as the security scheme, and the login as open', () => {
    expect(doc.components.securitySchemes.session).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'geroscope_session',
    })
    expect(doc.security).toEqual([{ session: [] }])
    expect(doc.paths['/api/auth/login'].post.security).toEqual([])
  })

  test('says how cross-site requests are treated, a request with neither Origin nor Referer included', () => {
    expect(doc.info.description).toContain(
      'A POST, PUT, PATCH or DELETE whose Origin header (or, without Origin, Referer) names another origin',
    )
    expect(doc.info.description).toContain('with neither header is allowed')
  })

  test('gives every operation the error envelopes, and every body its schema with unknown fields closed', () => {
    for (const { path, method, operation } of operations()) {
      for (const status of ['401', '403', '429', '500', '503']) {
        expect({ path, method, status, described: operation.responses[status] !== undefined }).toEqual({
          path,
          method,
          status,
          described: true,
        })
      }
      if (['post', 'put', 'patch'].includes(method)) {
        const schema = operation.requestBody?.content?.['application/json']?.schema
        expect({ path, method, closed: schema?.additionalProperties }).toEqual({ path, method, closed: false })
      }
    }
    const check = validator()
    expect(
      check('GET', '/api/sources', 401, { error: { status: 401, code: 'unauthenticated', message: 'm' } }),
    ).toEqual([])
    expect(
      check('GET', '/api/sources', 401, { error: { status: 401, code: 'missing_key', message: 'm' } }),
    ).not.toEqual([])
  })

  test('matches real responses, errors included', async () => {
    const check = validator()
    api.clock.set('2026-11-28T09:00:00Z')
    const operator = await api.operator()
    const member = await api.member()
    await insertPapers(api.database.db, [
      paperRow({
        id: 'MED-6161',
        judgedAt: null,
        relevance: null,
        judgementModel: null,
        judgementPromptVersion: null,
        extractedAt: null,
        topic: null,
        studyType: null,
      }),
    ])
    await insertPapers(api.database.db, [
      paperRow({ id: 'MED-6162', relevanceConfidence: 0.2 }),
      paperRow({ id: 'MED-6163', relevanceConfidence: null }),
    ])
    const op = { cookie: operator.token }
    const source = await (
      await api.call('/api/sources', { ...op, body: { name: 'Feed', url: `${feeds.url}/feed`, tags: ['journals'] } })
    ).json()
    const account = await (
      await api.call('/api/accounts', {
        ...op,
        body: { username: 'oa-member', password: 'a long password', role: 'member' },
      })
    ).json()
    const key = await (await api.call('/api/keys', { cookie: member.token, body: { label: 'k' } })).json()
    await api.database.db.insert(rssSources).values({ name: 'Spare', url: `${feeds.url}/spare` })
    const cases: [string, string, string, Parameters<typeof api.call>[1], number][] = [
      ['POST', '/api/auth/login', '/api/auth/login', { body: { username: 'nobody', password: 'wrong password' } }, 401],
      ['POST', '/api/auth/login', '/api/auth/login', { body: { username: 'x' } }, 400],
      ['GET', '/api/auth/me', '/api/auth/me', { cookie: member.token }, 200],
      ['GET', '/api/auth/me', '/api/auth/me', {}, 401],
      ['GET', '/api/keys', '/api/keys', { cookie: member.token }, 200],
      ['DELETE', '/api/keys/{id}', `/api/keys/${key.data.id}`, { cookie: member.token }, 200],
      ['DELETE', '/api/keys/{id}', '/api/keys/Zz000000', { cookie: member.token }, 404],
      ['GET', '/api/accounts', '/api/accounts', op, 200],
      ['GET', '/api/accounts', '/api/accounts', { cookie: member.token }, 403],
      ['GET', '/api/accounts/{id}', `/api/accounts/${account.data.id}`, op, 200],
      [
        'PATCH',
        '/api/accounts/{id}',
        `/api/accounts/${account.data.id}`,
        { ...op, body: { membership: 'lapsed' } },
        200,
      ],
      ['GET', '/api/accounts/{id}/keys', `/api/accounts/${account.data.id}/keys`, op, 200],
      [
        'POST',
        '/api/accounts/{id}/keys',
        `/api/accounts/${account.data.id}/keys`,
        { ...op, body: { label: 'pro' } },
        201,
      ],
      [
        'POST',
        '/api/accounts',
        '/api/accounts',
        { ...op, body: { username: 'oa-member', password: 'a long password', role: 'member' } },
        409,
      ],
      ['GET', '/api/sources', '/api/sources', op, 200],
      ['PATCH', '/api/sources/{id}', `/api/sources/${source.data.id}`, { ...op, body: { enabled: true } }, 200],
      ['POST', '/api/scrape', '/api/scrape', { ...op, method: 'POST' }, 200],
      ['POST', '/api/analyze', '/api/analyze', { ...op, body: { limit: 5 } }, 200],
      ['GET', '/api/jobs', '/api/jobs', op, 200],
      ['GET', '/api/prompts', '/api/prompts', op, 200],
      ['GET', '/api/prompts/{id}', '/api/prompts/claims', op, 200],
      ['PUT', '/api/prompts/{id}', '/api/prompts/claims', { ...op, body: { text: 'Extract claims.' } }, 200],
      ['PUT', '/api/prompts/{id}', '/api/prompts/claims', { ...op, body: { text: '' } }, 400],
      ['GET', '/api/review', '/api/review', op, 200],
      ['GET', '/api/review', '/api/review?reason=soon', op, 400],
      [
        'PUT',
        '/api/papers/{id}/judgement',
        '/api/papers/MED-6162/judgement',
        { ...op, body: { relevance: 1.5, note: 'Tangential.' } },
        200,
      ],
      [
        'PUT',
        '/api/papers/{id}/judgement',
        '/api/papers/MED-6161/judgement',
        { ...op, body: { relevance: 2, study_type: 'animal', topic: 'other' } },
        200,
      ],
      ['PUT', '/api/papers/{id}/judgement', '/api/papers/MED-6162/judgement', { ...op, body: { relevance: 9 } }, 400],
      ['PUT', '/api/papers/{id}/judgement', '/api/papers/MED-1/judgement', { ...op, body: { relevance: 1 } }, 404],
      ['GET', '/api/papers/{id}/judgement/history', '/api/papers/MED-6162/judgement/history', op, 200],
      ['GET', '/api/papers/{id}/judgement/history', '/api/papers/MED-1/judgement/history', op, 404],
      ['DELETE', '/api/sources/{id}', `/api/sources/${source.data.id}`, op, 200],
    ]
    for (const [method, path, url, options, status] of cases) {
      const response = await api.call(url, { method, address: freshAddress(), ...options })
      expect({ method, url, status: response.status }).toEqual({ method, url, status })
      expect({ method, url, errors: check(method, path, status, await response.json()) }).toEqual({
        method,
        url,
        errors: [],
      })
    }
    const created = await api.call('/api/sources', {
      cookie: operator.token,
      body: { name: 'Again', url: `${feeds.url}/again` },
    })
    expect(check('POST', '/api/sources', 201, await created.json())).toEqual([])
    const newKey = await api.call('/api/keys', { cookie: member.token, method: 'POST' })
    expect(check('POST', '/api/keys', 201, await newKey.json())).toEqual([])
    const logout = await api.call('/api/auth/logout', { cookie: member.token, method: 'POST' })
    expect(check('POST', '/api/auth/logout', 200, await logout.json())).toEqual([])
    const refused = await api.call('/api/sources', { cookie: operator.token, body: { name: 'x', url: 'ftp://x' } })
    expect(check('POST', '/api/sources', 400, await refused.json())).toEqual([])
  })
})
