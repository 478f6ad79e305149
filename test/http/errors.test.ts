import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { Elysia } from 'elysia'
import { errorPlugin } from '../../src/http/error-plugin'
import { ApiError } from '../../src/http/errors'
import { DomainError, invalidInput, nothingFound } from '../../src/domain-errors'
import { requestIdPlugin } from '../../src/http/request-id'
import { req, useTestApp } from '../support/app'

const api = useTestApp()

describe('error envelope', () => {
  test('an unknown path under /api is 404 not_found in the envelope, not cacheable', async () => {
    // On the error plugin alone: in the app, the admin gate answers 401 before routing.
    const bare = new Elysia()
      .use(requestIdPlugin)
      .use(errorPlugin())
      .get('/api/known', () => 'ok')
    const response = await bare.handle(req('/api/nothing-here'))
    expect(response.status).toBe(404)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toEqual({
      error: { status: 404, code: 'not_found', message: 'no such path: GET /api/nothing-here' },
    })
  })

  test('an unexpected failure is a 500 that names the request id and hides the cause', async () => {
    const failing = new Elysia()
      .use(requestIdPlugin)
      .use(errorPlugin())
      .get('/api/boom', () => {
        throw new Error('secret table "accounts" exploded')
      })
      .get('/api/teapot', () => {
        throw new ApiError('conflict', 'already there')
      })
    const response = await failing.handle(req('/api/boom', { headers: { 'x-request-id': 'req-123' } }))
    expect(response.status).toBe(500)
    const body = await response.json()
    expect(body.error.code).toBe('internal_error')
    expect(body.error.message).toContain('req-123')
    expect(JSON.stringify(body)).not.toContain('exploded')
    const conflict = await failing.handle(req('/api/teapot'))
    expect(conflict.status).toBe(409)
    expect(await conflict.json()).toEqual({ error: { status: 409, code: 'conflict', message: 'already there' } })
  })

  test('a domain error thrown below HTTP leaves as the envelope its kind names', async () => {
    const domain = new Elysia()
      .use(requestIdPlugin)
      .use(errorPlugin())
      .get('/api/bad', () => {
        throw invalidInput('q has no searchable words')
      })
      .get('/api/gone', () => {
        throw nothingFound('nothing to brief')
      })
      .get('/api/busy', () => {
        throw new DomainError('unavailable', 'try again', 30)
      })
    const bad = await domain.handle(req('/api/bad'))
    expect(await bad.json()).toEqual({
      error: { status: 400, code: 'invalid_parameter', message: 'q has no searchable words' },
    })
    const gone = await domain.handle(req('/api/gone'))
    expect(await gone.json()).toEqual({ error: { status: 404, code: 'not_found', message: 'nothing to brief' } })
    const busy = await domain.handle(req('/api/busy'))
    expect(busy.status).toBe(503)
    expect(busy.headers.get('retry-after')).toBe('30')
  })

  test('without a page option, a failure outside /api is the JSON envelope too', async () => {
    const bare = new Elysia().use(requestIdPlugin).use(errorPlugin())
    const response = await bare.handle(req('/no-such-page'))
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toContain('application/json')
  })

  test("text the database cannot store (NUL) is the caller's fault: 400, wherever no parser caught it", async () => {
    const storing = new Elysia()
      .use(requestIdPlugin)
      .use(errorPlugin())
      .get('/api/store', () => api.database.rows(sql`select ${'a\u0000b'}::text as t`))
    const response = await storing.handle(req('/api/store'))
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      error: {
        status: 400,
        code: 'invalid_parameter',
        message: 'text must not contain the NUL character (\\u0000 or %00)',
      },
    })
  })
})

describe('request ids', () => {
  test("every response carries one, the caller's own when sane", async () => {
    const own = await api.app.handle(req('/health', { headers: { 'x-request-id': 'abc-123' } }))
    expect(own.headers.get('x-request-id')).toBe('abc-123')
    const insane = await api.app.handle(req('/health', { headers: { 'x-request-id': 'a b\u00e9<script>' } }))
    expect(insane.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const missing = await api.app.handle(req('/nowhere'))
    expect(missing.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('health', () => {
  test('answers ok with the database driver', async () => {
    const response = await api.app.handle(req('/health'))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ data: { status: 'ok', database: api.database.driver } })
  })
})
