/**
 * Edges of every Data API parameter: bytes that are not UTF-8, one grammar for numbers, and how
 * much of an input a message repeats.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { ECHO_LIMIT, excerpt, quoted } from '../../src/http/errors'
import { decodeComponent } from '../../src/http/percent-decoding'
import { readNumber } from '../../src/modules/v1/params'
import { expectInvalidParameter } from '../support/expect'
import { req, useTestApp } from '../support/app'
import { bearer, insertEntity, insertPapers, linkEntity, paperRow } from '../support/fixtures'

const api = useTestApp()
const get = (path: string) => api.app.handle(req(path, bearer(api.key)))

beforeAll(async () => {
  await insertPapers(api.database.db, [
    paperRow({ id: 'MED-1', title: 'Café au lait and senescence', relevance: 2.5, indexedDate: '2026-11-02' }),
    paperRow({ id: 'MED-2', relevance: 0.5, indexedDate: '2026-11-01' }),
  ])
  const entity = await insertEntity(api.database.db, 'gene', 'HGNC:1', 'Gene one')
  await linkEntity(api.database.db, 'MED-1', '2026-11-02', entity.id, 'studied')
})

// Not UTF-8: a lone continuation byte, a byte never used, an overlong '/', a surrogate, a cut
// sequence, and a code point past U+10FFFF.
const NOT_UTF8 = ['%80', '%ff', '%c0%af', '%ed%a0%80', '%e2%82', '%f4%90%80%80']

const QUERY_PARAMETERS: [path: string, name: string][] = [
  ['/api/v1/papers', 'q'],
  ['/api/v1/papers', 'since'],
  ['/api/v1/papers', 'topic'],
  ['/api/v1/papers', 'cursor'],
  ['/api/v1/search', 'q'],
  ['/api/v1/claims', 'subject'],
  ['/api/v1/claims', 'object'],
  ['/api/v1/claims', 'relation'],
  ['/api/v1/claims', 'organism'],
  ['/api/v1/claims', 'paper_id'],
  ['/api/v1/entities', 'q'],
  ['/api/v1/entities', 'type'],
  ['/api/v1/stories', 'topic'],
]

describe('a parameter whose bytes are not UTF-8 is a 400 naming it, never read as U+FFFD', () => {
  test.each(QUERY_PARAMETERS.flatMap(([path, name]) => NOT_UTF8.map((bytes) => [path, name, bytes] as const)))(
    '%s %s=%s',
    async (path, name, bytes) => {
      await expectInvalidParameter(
        await get(`${path}?${name}=a${bytes}b`),
        `${name} is not valid percent-encoded UTF-8`,
      )
    },
  )

  test.each(NOT_UTF8)('a parameter name %s is a 400 too', async (bytes) => {
    await expectInvalidParameter(
      await get(`/api/v1/claims?x${bytes}=1`),
      'a parameter name is not valid percent-encoded UTF-8',
    )
  })

  test.each([
    ['/api/v1/papers/', 'id'],
    ['/api/v1/papers/MED-1', 'id'],
    ['/api/v1/entities/gene/', 'key'],
    ['/api/v1/entities/gene/HGNC:1', 'key'],
    ['/api/v1/exports/', 'file'],
    ['/api/v1/exports/papers-', 'file'],
  ])('the path id in %s… is a 400 naming %s', async (prefix, name) => {
    for (const bytes of NOT_UTF8)
      await expectInvalidParameter(
        await get(`${prefix}${bytes}`),
        `${name} in the path is not valid percent-encoded UTF-8`,
      )
  })

  test('an over-long export file name is a 400, not echoed whole', async () => {
    await expectInvalidParameter(
      await get(`/api/v1/exports/${'p'.repeat(5000)}`),
      'file in the path must be at most 200 characters (got 5000)',
    )
  })

  test('an entity type in the path is checked the same way', async () => {
    await expectInvalidParameter(
      await get('/api/v1/entities/%ff/HGNC:1'),
      'type in the path is not valid percent-encoded UTF-8',
    )
  })

  test('valid UTF-8, percent-encoded or not, still reads as itself', async () => {
    const cafe = await (await get('/api/v1/papers?q=caf%C3%A9&min_relevance=0')).json()
    expect(cafe.data.map((p: { id: string }) => p.id)).toEqual(['MED-1'])
    expect((await get('/api/v1/claims?subject=%F0%9F%A7%AC')).status).toBe(200) // an emoji, four bytes
    expect((await get('/api/v1/claims?subject=100%25+sure')).status).toBe(200)
    expect((await get('/api/v1/claims?subject=50%')).status).toBe(200) // a bare % stays a %
  })

  test.each([
    ['a+b', 'a b'],
    ['a%2Bb', 'a+b'],
    ['caf%C3%A9', 'café'],
    ['%', '%'],
    ['%zz', '%zz'],
    ['%e2%82%ac', '€'],
    ['%ff', null],
    ['%ed%a0%80', null],
  ])('decodeComponent(%p) is %p', (raw, decoded) => {
    expect(decodeComponent(raw)).toBe(decoded)
  })
})

describe('one grammar for every numeric parameter', () => {
  // The JSON number forms, plus a bare fraction or point and leading zeros.
  const accepted: [raw: string, value: number][] = [
    ['2', 2],
    ['0', 0],
    ['3', 3],
    ['0.5', 0.5],
    ['1e0', 1],
    ['2.5E-1', 0.25],
    ['25e-1', 2.5],
    ['1E+0', 1],
    ['.5', 0.5],
    ['2.', 2],
    ['010', 10],
    ['-0', -0],
    ['3.000', 3],
  ]
  const refused = [
    '',
    ' 1',
    '1 ',
    '+1',
    '0x1',
    '1_0',
    'Infinity',
    '-Infinity',
    'NaN',
    '1e',
    'e1',
    '.',
    '-',
    '1..2',
    '1.2.3',
    '1,5',
    '1e1.5',
    '１',
    '1e999',
  ]

  test.each(accepted)('%p reads as %p', (raw, value) => {
    expect(readNumber(raw)).toBe(value)
  })

  test.each(refused)('%p is not a number', (raw) => {
    expect(readNumber(raw)).toBeNull()
  })

  const relevanceEndpoints = ['/api/v1/papers', '/api/v1/search?q=senescence', '/api/v1/entities/gene/HGNC:1']
  const join = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`

  test.each(
    relevanceEndpoints.flatMap((path) =>
      accepted.filter(([, v]) => v >= 0 && v <= 3).map(([raw]) => [path, raw] as const),
    ),
  )('%s takes min_relevance=%s', async (path, raw) => {
    expect((await get(join(path, `min_relevance=${encodeURIComponent(raw)}`))).status).toBe(200)
  })

  test.each(
    relevanceEndpoints.flatMap((path) => [...refused, '-1', '3.0001', '4', '1e1'].map((raw) => [path, raw] as const)),
  )('%s refuses min_relevance=%p', async (path, raw) => {
    await expectInvalidParameter(
      await get(join(path, `min_relevance=${encodeURIComponent(raw)}`)),
      'min_relevance must be a number from 0 to 3',
    )
  })

  test('the same number written differently filters the same way', async () => {
    const ids = async (raw: string) =>
      (await (await get(`/api/v1/papers?min_relevance=${raw}`)).json()).data.map((p: { id: string }) => p.id)
    for (const raw of ['.5', '0.5', '5e-1', '0.50', '5E-1'])
      expect({ raw, ids: await ids(raw) }).toEqual({ raw, ids: ['MED-1', 'MED-2'] })
    for (const raw of ['2.', '2', '2e0', '0.2e1', '20E-1'])
      expect({ raw, ids: await ids(raw) }).toEqual({ raw, ids: ['MED-1'] })
  })

  test.each([
    ['10', 10],
    ['1e1', 10],
    ['10.0', 10],
    ['010', 10],
    ['1E2', 100],
    ['100.', 100],
    ['1', 1],
  ])('limit=%s is a page of %p', async (raw, limit) => {
    const body = await (await get(`/api/v1/papers?min_relevance=0&limit=${raw}`)).json()
    expect(body.pagination.limit).toBe(limit)
  })

  test.each([...refused, '2.5', '0', '101', '1e3', '1e-1', '-1', 'ten'])('limit=%p is refused', async (raw) => {
    await expectInvalidParameter(
      await get(`/api/v1/claims?limit=${encodeURIComponent(raw)}`),
      'limit must be an integer from 1 to 100',
    )
  })

  test('the OpenAPI document states the grammar for every numeric parameter', async () => {
    const doc = await (await api.app.handle(req('/api/v1/openapi.json'))).json()
    const numeric = Object.values(
      doc.paths as Record<
        string,
        { get?: { parameters?: { name: string; description: string; schema: { type: string } }[] } }
      >,
    )
      .flatMap((p) => p.get?.parameters ?? [])
      .filter((p) => p.schema.type === 'number' || p.schema.type === 'integer')
    expect(numeric.map((p) => p.name)).toContain('min_relevance')
    expect(numeric.map((p) => p.name)).toContain('limit')
    for (const p of numeric)
      expect({
        name: p.name,
        grammar: p.description.includes('as JSON writes numbers (2, 0.5, 1e0, 2.5E-1); .5 and 2. are read too'),
      }).toEqual({ name: p.name, grammar: true })
  })
})

describe('messages repeat at most 64 characters of an input', () => {
  const long = 'x'.repeat(5000)

  test.each([
    ['an unknown paper id', `/api/v1/papers/MED-${long}`, 404, `no paper with id "MED-${'x'.repeat(ECHO_LIMIT - 4)}"…`],
    ['an unknown entity', `/api/v1/entities/gene/${long}`, 404, `with key "${'x'.repeat(ECHO_LIMIT)}"…`],
    ['an unknown path', `/api/v1/${long}`, 404, `no such path: GET /api/v1/${'x'.repeat(ECHO_LIMIT - 8)}…`],
    ['a bad date', `/api/v1/papers?since=${long}`, 400, `(got "${'x'.repeat(ECHO_LIMIT)}"…)`],
    ['a bad number', `/api/v1/papers?min_relevance=${'1'.repeat(3000)}`, 400, `(got "${'1'.repeat(ECHO_LIMIT)}"…)`],
    ['a bad list value', `/api/v1/papers?topic=${long}`, 400, `unknown value "${'x'.repeat(ECHO_LIMIT)}"…`],
    ['a bad paper_id', `/api/v1/claims?paper_id=${long}`, 400, `(got "${'x'.repeat(ECHO_LIMIT)}"…)`],
    ['an unknown parameter', `/api/v1/papers?${long}=1`, 400, `unknown parameter "${'x'.repeat(ECHO_LIMIT)}"…`],
  ])('%s', async (_name, path, status, message) => {
    const response = await get(path)
    expect(response.status).toBe(status)
    const body = await response.json()
    expect(body.error.message).toContain(message)
    expect(body.error.message.length).toBeLessThan(300)
  })

  test('a cut never splits a character in two', () => {
    const emoji = '🧬'.repeat(100) // two UTF-16 code units each
    expect(quoted(emoji)).toBe(`"${'🧬'.repeat(ECHO_LIMIT)}"…`)
    expect(excerpt(emoji)).toBe(`${'🧬'.repeat(ECHO_LIMIT)}…`)
    expect(quoted('🧬'.repeat(ECHO_LIMIT))).toBe(`"${'🧬'.repeat(ECHO_LIMIT)}"`)
    expect(quoted('a"b\u0001')).toBe('"a\\"b\\u0001"')
  })
})
