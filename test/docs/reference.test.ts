/** The API reference pages: served by the service, from npm, pointing at the absolute document URLs. */
import { describe, expect, test } from 'bun:test'
import { ENDPOINT_EXAMPLES } from '../../src/modules/docs/quick-start'
import { req, useTestApp } from '../support/app'

const api = useTestApp()

const scriptsAndStyles = (html: string) =>
  [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+)"/g)].map((m) => m[1])

describe('the Data API reference at /api/v1/docs', () => {
  test('is a public HTML page whose viewer reads the absolute document URL', async () => {
    const response = await api.app.handle(req('/api/v1/docs'))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/html')
    const html = await response.text()
    expect(html).toContain('data-spec-url="https://geroscope.test/api/v1/openapi.json"')
    expect(html).toContain('Quick start')
  })

  test('loads nothing from another host: every script and stylesheet is served here', async () => {
    const html = await (await api.app.handle(req('/api/v1/docs'))).text()
    const urls = scriptsAndStyles(html).filter((u) => !u.endsWith('feed.xml'))
    expect(urls.length).toBeGreaterThanOrEqual(3)
    for (const url of urls) {
      expect(url.startsWith('/')).toBe(true)
      const asset = await api.app.handle(req(url))
      expect(asset.status).toBe(200)
      expect(asset.headers.get('cache-control')).toBe('public, max-age=86400')
      const again = await api.app.handle(req(url, { headers: { 'if-none-match': asset.headers.get('etag')! } }))
      expect(again.status).toBe(304)
    }
  })

  test('the quick-start has a copy-paste example for every path of the OpenAPI document', async () => {
    const spec = await (await api.app.handle(req('/api/v1/openapi.json'))).json()
    expect(ENDPOINT_EXAMPLES.map((e) => e.path).sort()).toEqual(Object.keys(spec.paths).sort())
    const html = await (await api.app.handle(req('/api/v1/docs'))).text()
    for (const e of ENDPOINT_EXAMPLES)
      expect(html).toContain(`https://geroscope.test${e.example.replaceAll('&', '&amp;')}`)
  })

  test('an unknown asset is a 404', async () => {
    expect((await api.app.handle(req('/assets/docs/0.0.0/nope.js'))).status).toBe(404)
  })
})

describe('the admin reference at /api/docs', () => {
  test('is public and reads the admin document at its absolute URL', async () => {
    const response = await api.app.handle(req('/api/docs'))
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('data-spec-url="https://geroscope.test/api/openapi.json"')
  })

  // The admin interface authenticates with the session cookie of POST /api/auth/login, not with a key.
  test('tells how to sign in, and asks for no key', async () => {
    const html = await (await api.app.handle(req('/api/docs'))).text()
    expect(html).not.toContain('your key')
    expect(html).toContain('Sign in first: <strong>Try it out</strong> on <code>POST /api/auth/login</code>')
    expect(await (await api.app.handle(req('/api/v1/docs'))).text()).toContain(
      'Use <strong>Authorize</strong> to give your key',
    )
  })
})
