/**
 * The /papers `q` filter knows an entity's other names as /search does (src/search/synonyms.ts): p16 finds the
 * papers that say CDKN2A or p16INK4a, sirolimus those that say rapamycin; a quoted name and an excluded one stay
 * literal. Both endpoints find the same papers for every query; /papers keeps its order (newest first), and its
 * count, group_by, fields= pages, cursors and the site's search feed agree with its list.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { req, useTestApp } from '../../support/app'
import { bearer, insertPapers, paperRow } from '../../support/fixtures'
import { SYNONYM_PAPERS } from '../search/synonym-papers'

const api = useTestApp()

// Indexed on different days, so that the list's order (newest first) differs from the search's ranking.
const INDEXED: Record<string, string> = {
  'MED-901': '2026-10-01',
  'MED-902': '2026-09-01',
  'MED-903': '2026-10-05',
  'MED-904': '2026-08-01',
  'MED-905': '2026-10-03',
  'MED-906': '2026-10-04',
  'MED-907': '2026-07-01',
  'MED-908': '2026-10-06',
  'MED-909': '2026-10-07',
  'MED-910': '2026-10-08',
}

const get = async (path: string) => {
  const response = await api.app.handle(req(path, bearer(api.key)))
  return { status: response.status, body: await response.json() }
}
const ids = async (endpoint: 'papers' | 'search', q: string, extra = '') => {
  const { status, body } = await get(`/api/v1/${endpoint}?q=${encodeURIComponent(q)}&min_relevance=0&limit=100${extra}`)
  expect(status).toBe(200)
  return (body.data as { id: string }[]).map((p) => p.id)
}
const papers = (q: string, extra = '') => ids('papers', q, extra)

beforeAll(async () => {
  await insertPapers(
    api.database.db,
    SYNONYM_PAPERS.map((p) => paperRow({ ...p, indexedDate: INDEXED[p.id] })),
  )
})

describe('/papers?q= matches a name by its other names', () => {
  test('p16 finds the papers that name CDKN2A and p16INK4a, newest first', async () => {
    expect(await papers('p16')).toEqual(['MED-903', 'MED-901', 'MED-902'])
  })

  test('sirolimus finds the papers that say rapamycin (not temsirolimus); rapamycin and CDKN2A work the other way, any case', async () => {
    expect(await papers('sirolimus')).toEqual(['MED-905', 'MED-904'])
    expect(await papers('RAPAMYCIN')).toEqual(['MED-905', 'MED-904'])
    expect(await papers('cdkn2a')).toEqual(['MED-903', 'MED-901', 'MED-902'])
  })

  test('NR finds nicotinamide riboside, never NRF2; the other words of the query still apply', async () => {
    expect(await papers('NR')).toEqual(['MED-906', 'MED-907'])
    expect(await papers('sirolimus liver')).toEqual(['MED-905'])
    expect(await papers('p16 kidney')).toEqual(['MED-902'])
  })

  test('a quoted name stays literal', async () => {
    expect(await papers('"p16"')).toEqual(['MED-903'])
    expect(await papers('"sirolimus"')).toEqual(['MED-904'])
  })

  test('an excluded name excludes only itself, as on /search', async () => {
    // MED-903 says p16; MED-901 and MED-902 say CDKN2A and p16INK4a.
    expect(await papers('senescence -p16')).toEqual(['MED-901', 'MED-902'])
    expect(await papers('lifespan -sirolimus')).toEqual(['MED-905'])
  })

  test('OR between an expanded name and another', async () => {
    expect(await papers('p16 OR sirolimus')).toEqual(['MED-903', 'MED-905', 'MED-901', 'MED-902', 'MED-904'])
  })

  test('/papers and /search find the same papers for every query (each in its own order)', async () => {
    const queries = [
      'p16',
      'sirolimus',
      'RAPAMYCIN',
      'cdkn2a',
      'NR',
      'NRF2',
      'sirtuin 1',
      'sirolimus liver',
      'p16 kidney',
      '"p16"',
      '"sirolimus"',
      'senescence -p16',
      'lifespan -sirolimus',
      'p16 OR sirolimus',
      'temsirolimus',
      'p16INK4a',
    ]
    for (const q of queries) {
      const listed = await papers(q)
      expect({ q, ids: [...listed].sort() }).toEqual({ q, ids: (await ids('search', q)).sort() })
      expect(listed.length).toBeGreaterThan(0)
    }
  })
})

describe('everything /papers answers for q agrees with the list', () => {
  test('count=true and group_by count the papers the list has', async () => {
    const expected: Record<string, number> = { p16: 3, sirolimus: 2, '"p16"': 1, 'senescence -p16': 2 }
    for (const [q, n] of Object.entries(expected)) {
      const listed = await papers(q)
      expect({ q, listed: listed.length }).toEqual({ q, listed: n })
      const { body } = await get(
        `/api/v1/papers?q=${encodeURIComponent(q)}&min_relevance=0&count=true&group_by=study_type`,
      )
      expect({ q, total: body.pagination.total }).toEqual({ q, total: listed.length })
      const grouped = (body.group_by as { count: number }[]).reduce((n, g) => n + g.count, 0)
      expect({ q, grouped }).toEqual({ q, grouped: listed.length })
    }
  })

  test('fields= pages (written by PostgreSQL) and cursors list the same papers', async () => {
    expect(await papers('p16', '&fields=id,title')).toEqual(['MED-903', 'MED-901', 'MED-902'])
    const walked: string[] = []
    let cursor = ''
    do {
      const { status, body } = await get(
        `/api/v1/papers?q=sirolimus&min_relevance=0&limit=1${cursor && `&cursor=${cursor}`}`,
      )
      expect(status).toBe(200)
      walked.push(...body.data.map((p: { id: string }) => p.id))
      cursor = body.pagination.next_cursor ?? ''
    } while (cursor)
    expect(walked).toEqual(['MED-905', 'MED-904'])
  })

  test("the site's search feed lists what /papers lists", async () => {
    const xml = await (await api.app.handle(req(`/search/feed.xml?q=p16&min_relevance=0`))).text()
    const listed = [...xml.matchAll(/geroscope:paper:(MED-\d+)/g)].map((m) => m[1])
    expect(listed).toEqual(['MED-903', 'MED-901', 'MED-902'])
  })
})
