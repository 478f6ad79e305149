/**
 * Security headers on every kind of HTML page the service serves: the site's
 * pages, both API references and the HTML error pages each carry a Content-Security-Policy fit for
 * the page, no framing, no sniffing and a Referrer-Policy. The console has its own (test/console).
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { refreshEntityCounts } from '../../src/jobs/refresh-entity-counts'
import { req, useTestApp } from '../support/app'
import { insertEntity, insertPapers, insertStory, linkEntity, paperRow } from '../support/fixtures'

const api = useTestApp()

beforeAll(async () => {
  const db = api.database.db
  await insertPapers(db, [paperRow({ id: 'MED-1', relevance: 2.5, indexedDate: '2026-11-02' })])
  await insertStory(db, 'MED-1')
  const gene = await insertEntity(db, 'gene', 'HGNC:3942', 'MTOR')
  await linkEntity(db, 'MED-1', '2026-11-02', gene.id, 'target')
  await refreshEntityCounts(db)
})

const get = (path: string) => api.app.handle(req(path, { headers: { accept: 'text/html' } }))
const directives = (csp: string) =>
  new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  )
const hashOf = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`

function expectCommonHeaders(response: Response) {
  expect(response.headers.get('content-type')).toContain('text/html')
  expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
  expect(response.headers.get('x-frame-options')).toBe('DENY')
  const csp = directives(response.headers.get('content-security-policy') ?? '')
  expect(csp.get('default-src')).toEqual(["'none'"])
  expect(csp.get('frame-ancestors')).toEqual(["'none'"])
  expect(csp.get('base-uri')).toEqual(["'none'"])
  expect(csp.get('form-action')).toEqual(["'self'"])
  return csp
}

/** The page's inline style must be one the policy allows, or the page would render unstyled. */
async function expectStyleAllowed(response: Response, csp: Map<string, string[]>) {
  const html = await response.text()
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!
  const allowed = csp.get('style-src')!
  expect(allowed.includes(hashOf(style)) || allowed.includes("'unsafe-inline'")).toBe(true)
  return html
}

describe('site pages and HTML error pages: no script, only their own style', () => {
  test.each([
    ['the home page', '/', 200],
    ['a paper', '/papers/MED-1', 200],
    ['a story', '/stories/MED-1', 200],
    ['a topic', '/topics/other', 200],
    ['an entity', '/entities/gene/HGNC:3942', 200],
    ['search', '/search?q=mtor', 200],
    ['an unknown page (404)', '/nope', 404],
    ['an unknown paper (404)', '/papers/MED-999', 404],
    ['a path id that is not UTF-8 (404)', '/papers/%ff', 404],
  ])('%s', async (_name, path, status) => {
    const response = await get(path)
    expect([path, response.status]).toEqual([path, status])
    const csp = expectCommonHeaders(response)
    expect(csp.has('script-src')).toBe(false) // default-src 'none': no script runs
    expect(csp.get('style-src')!.every((s) => s.startsWith("'sha256-"))).toBe(true)
    const html = await expectStyleAllowed(response, csp)
    expect(html).not.toContain('<script')
  })
})

describe('the API references: Swagger UI from this origin only', () => {
  test.each(['/api/v1/docs', '/api/docs'])('%s', async (path) => {
    const response = await get(path)
    expect(response.status).toBe(200)
    const csp = expectCommonHeaders(response)
    expect(csp.get('script-src')).toEqual(["'self'"])
    expect(csp.get('connect-src')).toEqual(["'self'"])
    const html = await expectStyleAllowed(response, csp)
    for (const [, src] of html.matchAll(/<script src="([^"]+)"/g)) expect(src).toStartWith('/') // same origin
  })

  test('their assets are not sniffed', async () => {
    const html = await (await get('/api/v1/docs')).text()
    const src = /<script src="([^"]+)"/.exec(html)![1]!
    const asset = await api.app.handle(req(src))
    expect(asset.status).toBe(200)
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff')
  })
})
