/**
 * /search knows an entity's other names (src/search/synonyms.ts) on the PostgreSQL backend:
 * p16 finds the papers that say CDKN2A or p16INK4a, sirolimus those that say rapamycin, NR those that
 * say nicotinamide riboside; a quoted name and an excluded one stay literal; a name never matches
 * inside a longer word; the ranking tiers still hold for any of the names.
 * (The Meilisearch backend: search.meilisearch-synonyms.test.ts.)
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { req, useTestApp } from '../../support/app'
import { bearer, insertPapers, paperRow } from '../../support/fixtures'
import { SYNONYM_PAPERS } from './synonym-papers'

const api = useTestApp()

const get = async (path: string) => {
  const response = await api.app.handle(req(path, bearer(api.key)))
  return { status: response.status, body: await response.json() }
}
const search = async (q: string) => {
  const { status, body } = await get(`/api/v1/search?q=${encodeURIComponent(q)}&min_relevance=0`)
  expect(status).toBe(200)
  return (body.data as { id: string }[]).map((p) => p.id)
}

beforeAll(async () => {
  await insertPapers(
    api.database.db,
    SYNONYM_PAPERS.map((p) => paperRow(p)),
  )
})

describe('a name finds the papers that use its other names', () => {
  test('/search?q=p16 finds the papers that name CDKN2A and p16INK4a', async () => {
    expect((await search('p16')).sort()).toEqual(['MED-901', 'MED-902', 'MED-903'])
  })

  test('/search?q=sirolimus finds the papers that say rapamycin, and not temsirolimus', async () => {
    expect((await search('sirolimus')).sort()).toEqual(['MED-904', 'MED-905'])
  })

  test('rapamycin finds sirolimus, CDKN2A finds p16, any case', async () => {
    expect((await search('RAPAMYCIN')).sort()).toEqual(['MED-904', 'MED-905'])
    expect((await search('cdkn2a')).sort()).toEqual(['MED-901', 'MED-902', 'MED-903'])
  })

  test('NR finds nicotinamide riboside as a whole word only (not NRF2)', async () => {
    expect((await search('NR')).sort()).toEqual(['MED-906', 'MED-907'])
    expect(await search('NRF2')).toEqual(['MED-908'])
  })

  test('a name of two words expands too (sirtuin 1 -> SIRT1)', async () => {
    expect((await search('sirtuin 1')).sort()).toEqual(['MED-909'])
  })

  test('the other words of the query still apply', async () => {
    expect(await search('sirolimus liver')).toEqual(['MED-905'])
    expect(await search('p16 kidney')).toEqual(['MED-902'])
  })
})

describe('what stays literal', () => {
  test('a quoted name is searched as written', async () => {
    expect(await search('"sirolimus"')).toEqual(['MED-904'])
    expect(await search('"p16"')).toEqual(['MED-903'])
  })

  test('an excluded name excludes only itself', async () => {
    expect(await search('lifespan -sirolimus')).toContain('MED-905')
    expect(await search('lifespan -sirolimus')).not.toContain('MED-904')
  })

  test('a query with no entity name is unchanged', async () => {
    expect(await search('temsirolimus')).toEqual(['MED-910'])
  })
})

describe('ranking over the names', () => {
  test('a title that says the other name ranks in the title tiers, before a paper that says the typed name in its abstract only', async () => {
    // MED-901's title says CDKN2A; MED-903 says p16 in its abstract only.
    const order = await search('p16')
    expect(order.indexOf('MED-901')).toBeLessThan(order.indexOf('MED-903'))
  })

  test('the other names keep the query tight: the title saying "Sirolimus lifespan" ranks first for rapamycin lifespan', async () => {
    const { body } = await get(`/api/v1/search?q=${encodeURIComponent('rapamycin lifespan')}&min_relevance=0`)
    // MED-904's title holds "Sirolimus lifespan" side by side: tier 0 for either name.
    expect(body.data[0].id).toBe('MED-904')
  })
})
