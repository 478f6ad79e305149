/** The public site fails in HTML; JSON stays under /api (and on /health, for machines). */
import { describe, expect, test } from 'bun:test'
import { req, useTestApp } from '../support/app'

const api = useTestApp()

describe('site error pages', () => {
  test.each([
    ['an unknown paper', '/papers/MED-999', 'no paper with id &quot;MED-999&quot;'],
    ['a paper id that is not one', '/papers/XYZ', 'no paper with id &quot;XYZ&quot;'],
    ['a paper id that is not UTF-8', '/papers/%ff', 'not valid percent-encoded UTF-8'],
    ['a story of an unknown paper', '/stories/MED-999', 'no paper with id'],
    ['an unknown topic', '/topics/aging', 'no topic &quot;aging&quot;'],
    ['an unknown topic feed', '/topics/aging/feed.xml', 'no topic'],
    ['an unknown page', '/nope', 'no such path: GET /nope'],
    ['an unknown page under a known one', '/papers/MED-1/more', 'no such path'],
    ['a hostile path', '/%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'no such path: GET /%3Cscript%3E'],
  ])('%s is an HTML 404 page', async (_name, path, message) => {
    const response = await api.app.handle(req(path, { headers: { accept: 'text/html' } }))
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toContain('text/html')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const html = await response.text()
    expect(html).toStartWith('<!doctype html>')
    expect(html).toContain('<h1>Page not found</h1>')
    expect(html).toContain(message)
    expect(html).not.toContain('<script>')
    expect(html).toContain('<a href="/">')
  })

  test('a long unknown path is cut in the page too', async () => {
    const html = await (await api.app.handle(req(`/${'x'.repeat(5000)}`))).text()
    const short = await (await api.app.handle(req('/x'))).text()
    expect(html.length - short.length).toBeLessThan(1000)
  })

  test.each(['/api/nope', '/api/v1/nope', '/api', '/api/v1'])('%s stays JSON', async (path) => {
    const response = await api.app.handle(req(path, { headers: { accept: 'text/html' } }))
    expect(response.headers.get('content-type')).toContain('application/json')
    expect((await response.json()).error.status).toBeGreaterThanOrEqual(400)
  })
})
