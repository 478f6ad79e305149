/**
 * Every admin route (read from the app's own route table, so a new one is covered without being
 * listed here) gets hostile path ids and hostile bodies: malformed JSON, JSON that is not an object,
 * unknown fields, and for each field its OpenAPI document declares, every wrong type and an
 * oversized string. Each answer must be the error envelope (or a success), never a 5xx: bad input
 * never hurts.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { useAdminApp } from '../support/admin'

const api = useAdminApp()
let token: string
let openapi: {
  paths: Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> } }>
  >
}

beforeAll(async () => {
  token = (await api.operator()).token
  openapi = await (await api.call('/api/openapi.json')).json()
})

const adminRoutes = () =>
  api.app.routes
    .filter(
      (r) =>
        r.path.startsWith('/api/') && !r.path.startsWith('/api/v1') && r.method !== 'HEAD' && r.method !== 'OPTIONS',
    )
    .map((r) => ({ method: r.method, path: r.path }))

const HOSTILE_IDS = [
  '%80',
  '%ff',
  '%c0%af',
  '%ed%a0%80',
  '%e2%82',
  '%00',
  'a%00b',
  '9'.repeat(300),
  'x'.repeat(5000),
  '..',
  '%2e%2e',
  '%2F',
  '-1',
  '0',
  '1e3',
  '1.5',
  '%20',
  '0x10',
  '2147483648',
  '99999999999999999999',
  '%F0%9F%A7%AC',
  "'%20or%201=1--",
  '%25',
  '%',
  '%zz',
  'null',
]

const MALFORMED = [
  '{',
  '{"a":',
  '{"a" 1}',
  '[1,',
  'nul',
  '{"a":1}}',
  '\u0000',
  '{"a":"\\ud800"}',
  '{"a":1e99999}',
  '{"a":"\\x"}',
  '['.repeat(5000),
]
const NOT_OBJECTS = ['[]', '[{}]', '1', '"text"', 'null', 'true']
const WRONG_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  '',
  ' ',
  'x'.repeat(200_000),
  [],
  ['a', 1, null],
  {},
  { nested: { deeper: [1] } },
  'a\u0000b',
]

let sent = 0
/** Sends as the operator; the test clock moves a minute every 90 requests to stay within the account's 100 a minute. */
async function send(method: string, path: string, raw?: string, contentType = 'application/json') {
  if (++sent % 90 === 0) api.clock.advance(61_000)
  return api.call(path, {
    method,
    raw,
    cookie: token,
    headers: { origin: 'https://geroscope.test', ...(raw === undefined ? {} : { 'content-type': contentType }) },
  })
}

async function expectEnvelope(response: Response, what: string) {
  const text = await response.text()
  expect({ what, status: response.status }).toEqual({ what, status: expect.any(Number) })
  if (response.status >= 500) throw new Error(`${what}: ${response.status} ${text.slice(0, 300)}`)
  expect(response.headers.get('x-request-id')).toBeTruthy()
  if (response.status < 400) return
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new Error(`${what}: ${response.status} is not JSON: ${text.slice(0, 200)}`)
  }
  expect({ what, body }).toEqual({
    what,
    body: { error: { status: response.status, code: expect.any(String), message: expect.any(String) } },
  })
}

const withIds = (path: string, id: string) => path.replace(/:[a-z_]+/gi, id)
const openApiPath = (path: string) => path.replace(/:([a-z_]+)/gi, '{$1}')
const fieldsOf = (method: string, path: string) =>
  Object.keys(
    openapi.paths[openApiPath(path)]?.[method.toLowerCase()]?.requestBody?.content['application/json']?.schema
      .properties ?? {},
  )

const isWrite = (method: string) => ['POST', 'PUT', 'PATCH'].includes(method)

describe('every admin route', () => {
  test('lists the routes it fuzzes (the table is not empty, writes included)', () => {
    const routes = adminRoutes()
    expect(routes.length).toBeGreaterThan(25)
    expect(routes.filter((r) => r.path.includes(':')).length).toBeGreaterThanOrEqual(10)
    expect(
      routes.filter((r) => isWrite(r.method) && fieldsOf(r.method, r.path).length > 0).length,
    ).toBeGreaterThanOrEqual(10)
  })

  test('answers hostile path ids with the envelope, never a 5xx', async () => {
    for (const { method, path } of adminRoutes().filter((r) => r.path.includes(':'))) {
      for (const id of HOSTILE_IDS) {
        const response = await send(method, withIds(path, id), isWrite(method) ? '{}' : undefined)
        await expectEnvelope(response, `${method} ${withIds(path, id).slice(0, 80)}`)
      }
    }
  })

  test('answers malformed JSON, JSON that is not an object and unknown fields with a 400, never a 5xx', async () => {
    for (const { method, path } of adminRoutes().filter((r) => isWrite(r.method))) {
      const target = withIds(path, '1')
      for (const raw of [
        ...MALFORMED,
        ...NOT_OBJECTS,
        '{"no_such_field":1}',
        JSON.stringify({ ['x'.repeat(10_000)]: 1 }),
      ]) {
        const response = await send(method, target, raw)
        await expectEnvelope(response, `${method} ${target} ${raw.slice(0, 30)}`)
        expect({ route: `${method} ${path}`, raw: raw.slice(0, 30), status: response.status }).toEqual({
          route: `${method} ${path}`,
          raw: raw.slice(0, 30),
          status: 400,
        })
      }
      // A body that is not JSON at all.
      await expectEnvelope(
        await send(method, target, 'a=1&b=2', 'application/x-www-form-urlencoded'),
        `${method} ${target} form`,
      )
      await expectEnvelope(await send(method, target, '<a/>', 'text/xml'), `${method} ${target} xml`)
    }
  })

  test('answers each declared field given a wrong type or an oversized value with the envelope, never a 5xx', async () => {
    for (const { method, path } of adminRoutes().filter((r) => isWrite(r.method))) {
      const target = withIds(path, '1')
      for (const field of fieldsOf(method, path)) {
        for (const value of WRONG_VALUES) {
          const response = await send(method, target, JSON.stringify({ [field]: value }))
          await expectEnvelope(response, `${method} ${target} ${field}=${JSON.stringify(value)?.slice(0, 30)}`)
        }
      }
    }
  })
})
