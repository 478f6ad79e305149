/**
 * Path ids of the admin interface that are not what a path id can be: percent-encoding that is not
 * UTF-8 (the router hands these over as null), a NUL, an over-long value. Each is a 400 naming the
 * parameter in the envelope, before any database read; none is a 500.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { useAdminApp } from '../support/admin'

const api = useAdminApp()
let token: string
beforeAll(async () => {
  token = (await api.operator()).token
})

// A lone continuation byte, a byte never used, an overlong '/', a surrogate, a cut sequence.
const NOT_UTF8 = ['%80', '%ff', '%c0%af', '%ed%a0%80', '%e2%82']

// [method, path with {id}, body]: every admin route with a path parameter.
const ROUTES: [string, string, unknown][] = [
  ['GET', '/api/prompts/{id}', undefined],
  ['PUT', '/api/prompts/{id}', { text: 'A prompt.' }],
  ['GET', '/api/accounts/{id}', undefined],
  ['PATCH', '/api/accounts/{id}', { membership: 'lapsed' }],
  ['GET', '/api/accounts/{id}/keys', undefined],
  ['POST', '/api/accounts/{id}/keys', {}],
  ['PATCH', '/api/sources/{id}', { enabled: false }],
  ['DELETE', '/api/sources/{id}', undefined],
  ['DELETE', '/api/keys/{id}', undefined],
  ['GET', '/api/briefs/{id}', undefined],
  ['GET', '/api/intelligence/contradictions/{id}', undefined],
  ['GET', '/api/intelligence/gaps/{id}', undefined],
]

const call = (method: string, path: string, body: unknown) =>
  api.call(path, { method, body, cookie: token, headers: { origin: 'https://geroscope.test' } })

async function expect400(response: Response, message: string) {
  expect(response.status).toBe(400)
  expect(response.headers.get('x-request-id')).toBeTruthy()
  expect(await response.json()).toEqual({
    error: { status: 400, code: 'invalid_parameter', message: expect.stringContaining(message) },
  })
}

describe('a path id that is not valid percent-encoded UTF-8 is a 400 naming it', () => {
  test.each(ROUTES)('%s %s', async (method, template, body) => {
    for (const bytes of NOT_UTF8) {
      await expect400(
        await call(method, template.replace('{id}', `a${bytes}b`), body),
        'id in the path is not valid percent-encoded UTF-8',
      )
    }
  })
})

describe('a NUL or an over-long path id is a 400, not a database error', () => {
  test.each(ROUTES)('%s %s', async (method, template, body) => {
    const nul = await call(method, template.replace('{id}', 'judge%00'), body)
    expect(nul.status).toBe(400)
    expect((await nul.json()).error.code).toBe('invalid_parameter')
    const long = await call(method, template.replace('{id}', '9'.repeat(5000)), body)
    expect(long.status).toBe(400)
    const message: string = (await long.json()).error.message
    expect(message).toMatch(/^id /)
    expect(message.length).toBeLessThan(200) // the id is not echoed whole
  })
})

test('a prompt id of 100 characters is still looked up (404), one of 101 is refused', async () => {
  expect((await call('GET', `/api/prompts/${'p'.repeat(100)}`, undefined)).status).toBe(404)
  await expect400(
    await call('GET', `/api/prompts/${'p'.repeat(101)}`, undefined),
    'id in the path must be at most 100 characters (got 101)',
  )
})
