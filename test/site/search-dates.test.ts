/**
 * The site's search page filters by date as /api/v1/search does, with the same names: published_since and
 * published_until on the publication date, since and until on the day a paper entered the service. Its form
 * holds the dates given; a form's empty fields filter nothing; a malformed date is a 400 that names it.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { bearer, insertPapers, paperRow } from '../support/fixtures'
import { req, useTestApp } from '../support/app'

const api = useTestApp()
const PAPERS = [
  { id: 'MED-31', publishedDate: '2025-03-01', indexedDate: '2026-10-01' },
  { id: 'MED-32', publishedDate: '2026-09-20', indexedDate: '2026-10-02' },
  { id: 'MED-33', publishedDate: null, indexedDate: '2026-10-03' },
  { id: 'MED-34', publishedDate: '2026-10-01', indexedDate: '2026-10-04' },
]
beforeAll(async () => {
  await insertPapers(
    api.database.db,
    PAPERS.map((p) => paperRow({ ...p, title: `Klotho and aging, paper ${p.id}` })),
  )
})

const page = async (query: string) => {
  const response = await api.app.handle(req(`/search?${query}`))
  return { status: response.status, html: await response.text() }
}
const hits = (html: string) => [...html.matchAll(/<a href="[^"]*\/papers\/(MED-\d+)">/g)].map((m) => m[1]).sort()
const apiHits = async (query: string) => {
  const body = await (await api.app.handle(req(`/api/v1/search?${query}&min_relevance=0`, bearer(api.key)))).json()
  return body.data.map((p: { id: string }) => p.id).sort()
}

describe("the search page's dates", () => {
  test.each([
    ['published_since=2026-01-01', ['MED-32', 'MED-34']],
    ['published_until=2026-09-30', ['MED-31', 'MED-32']],
    ['published_since=2026-09-01&published_until=2026-09-30', ['MED-32']],
    ['since=2026-10-03', ['MED-33', 'MED-34']],
    ['until=2026-10-02&published_since=2026-01-01', ['MED-32']],
    ['since=&until=&published_since=&published_until=', ['MED-31', 'MED-32', 'MED-33', 'MED-34']],
  ])('q=klotho&%s: the papers /api/v1/search finds', async (dates, expected) => {
    const { status, html } = await page(`q=klotho&${dates}`)
    expect(status).toBe(200)
    expect(hits(html)).toEqual(expected)
    const given = dates.split('&').filter((d) => !d.endsWith('='))
    expect(await apiHits(`q=klotho&${given.join('&')}`)).toEqual(expected)
  })

  test('the form holds the dates given, each field labelled', async () => {
    const { html } = await page('q=klotho&published_since=2026-01-01&until=2026-10-02')
    expect(html).toContain('<label>Published from <input type="date" name="published_since" value="2026-01-01">')
    expect(html).toContain('<label>Added until <input type="date" name="until" value="2026-10-02"></label>')
    expect(html).toContain('<label>Published until <input type="date" name="published_until" value=""></label>')
    expect((await page('')).html).toContain('name="published_since"') // the empty search page has the fields too
  })

  test('a malformed date is a 400 that names it', async () => {
    const { status, html } = await page('q=klotho&published_since=2026-02-30')
    expect(status).toBe(400)
    expect(html).toContain('published_since must be a date')
  })
})
