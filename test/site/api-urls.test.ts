/** Every absolute URL an API answer holds (site_url, story url, feed_url, api_url...) resolves with 200. */
import { beforeAll, describe, expect, test } from 'bun:test'
import { req, useTestApp } from '../support/app'
import { bearer } from '../support/fixtures'
import { seedSite } from './corpus'

const api = useTestApp()
beforeAll(async () => {
  await seedSite(api.database.db)
})

const BASE = 'https://geroscope.test'

/** Every string value under `node` that is a URL on this service. */
function ownUrls(node: unknown, into = new Set<string>()): Set<string> {
  if (typeof node === 'string' && node.startsWith(`${BASE}/`)) into.add(node)
  else if (Array.isArray(node)) node.forEach((v) => ownUrls(v, into))
  else if (node && typeof node === 'object') Object.values(node).forEach((v) => ownUrls(v, into))
  return into
}

describe('URLs in API answers', () => {
  test("resolve with 200: the site's with no key, the API's with one", async () => {
    const urls = new Set<string>()
    for (const path of [
      '/api/v1/papers?min_relevance=0&limit=100',
      '/api/v1/papers/MED-1',
      '/api/v1/stories?limit=100',
      '/api/v1/topics',
      '/api/v1/entities',
      '/api/v1/entities/intervention/rapamycin',
      '/api/v1/claims',
      '/api/v1/search?q=senolytic&min_relevance=0',
    ]) {
      const response = await api.app.handle(req(path, bearer(api.key)))
      expect({ path, status: response.status }).toEqual({ path, status: 200 })
      ownUrls(await response.json(), urls)
    }
    const kinds = new Set(
      [...urls].map((u) => (new URL(u).pathname.split('/')[1] === 'api' ? 'api' : new URL(u).pathname.split('/')[1])),
    )
    expect([...kinds].sort()).toEqual(['api', 'papers', 'stories', 'topics'])
    for (const url of urls) {
      const { pathname, search } = new URL(url)
      const response = await api.app.handle(
        req(pathname + search, pathname.startsWith('/api/') ? bearer(api.key) : undefined),
      )
      expect({ url, status: response.status }).toEqual({ url, status: 200 })
    }
  })
})
