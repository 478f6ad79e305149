/**
 * What the service itself serves under /console: the same static shell for every screen, under a
 * strict Content-Security-Policy, with no inline script and nothing from another origin; the
 * assets with an ETag; unknown screens and assets as HTML 404 pages. No browser needed.
 */
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { CONSOLE_CSP } from '../../src/modules/console/shell'
import { req, useTestApp } from '../support/app'

const SCREENS = [
  '/console',
  '/console/',
  '/console/sign-in',
  '/console/sources',
  '/console/jobs',
  '/console/briefs',
  '/console/briefs/12',
  '/console/contradictions',
  '/console/gaps',
  '/console/prompts',
  '/console/prompts/judge',
  '/console/accounts',
  '/console/accounts/3',
  '/console/keys',
  '/console/review',
]

describe('the console shell and assets', () => {
  const api = useTestApp()

  test.each(SCREENS)('%s: the shell, under the CSP, with no inline script and no data', async (path) => {
    const response = await api.app.handle(req(path))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('content-security-policy')).toBe(CONSOLE_CSP)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    const html = await response.text()
    expect(html).toContain('<main id="main"')
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts.map((s) => [s[1].trim(), s[2]])).toEqual([['type="module" src="/console/assets/app.js"', '']])
    expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//) // nothing from another origin
    expect(html).not.toMatch(/\son[a-z]+=/i) // no inline handlers
  })

  test("the policy allows only this origin's scripts, styles and connections, and no framing", () => {
    expect(CONSOLE_CSP).toContain("default-src 'none'")
    expect(CONSOLE_CSP).toContain("script-src 'self'")
    expect(CONSOLE_CSP).not.toContain('unsafe')
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'")
  })

  test('every asset the shell and scripts name is served, with an ETag and 304 on revalidation', async () => {
    for (const asset of [
      'app.js',
      'dom.js',
      'api.js',
      'forms.js',
      'console.css',
      'vocabulary.js',
      'screens/sign-in.js',
      'screens/brief.js',
    ]) {
      const response = await api.app.handle(req(`/console/assets/${asset}`))
      expect({ asset, status: response.status }).toEqual({ asset, status: 200 })
      expect(response.headers.get('content-type')).toMatch(asset.endsWith('.css') ? /^text\/css/ : /^text\/javascript/)
      const etag = response.headers.get('etag')!
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/)
      const again = await api.app.handle(req(`/console/assets/${asset}`, { headers: { 'if-none-match': etag } }))
      expect(again.status).toBe(304)
    }
    const vocabulary = await (await api.app.handle(req('/console/assets/vocabulary.js'))).text()
    expect(vocabulary).toContain('"slug":"senescence"')
  })

  test('unknown screens and assets are HTML 404 pages', async () => {
    for (const path of [
      '/console/nope',
      '/console/briefs/abc',
      '/console/assets/nope.js',
      '/console/assets/../shell.ts',
    ]) {
      const response = await api.app.handle(req(path))
      expect({ path, status: response.status }).toEqual({ path, status: 404 })
      expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    }
  })

  test('the scripts build the page from text nodes: no HTML strings, no eval, no other origin', () => {
    const dir = fileURLToPath(new URL('../../src/modules/console/assets/', import.meta.url))
    const files = readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.js'))
    expect(files.length).toBeGreaterThan(10)
    for (const file of files) {
      const source = readFileSync(`${dir}${file}`, 'utf8')
      expect({
        file,
        found: source.match(
          /innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|https?:\/\/(?!example\.org)/g,
        ),
      }).toEqual({ file, found: null })
    }
  })
})
