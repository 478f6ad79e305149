/**
 * PostgreSQL full-text search (the default backend, also on PGlite): the biomedical tokens readers
 * type, the ranking rules of the search issue, and the bounded candidate set.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { MAX_RANKED_HITS } from '../../src/search/backend'
import { PostgresSearch } from '../../src/search/postgres'
import { freshDatabase, type TestDatabase } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'

let database: TestDatabase
let search: PostgresSearch

const everyPaper = { minRelevance: 0 }
const find = async (q: string, limit = 100) =>
  (await search.search({ q, filters: everyPaper, limit, after: null })).map((h) => h.id)

beforeAll(async () => {
  database = await freshDatabase()
  search = new PostgresSearch(database.db)
  await insertPapers(database.db, [
    paperRow({ id: 'MED-101', title: 'GLP-1 receptor agonists and biological age', abstract: 'Semaglutide lowered an epigenetic clock.' }),
    paperRow({ id: 'MED-102', title: 'Incretin signalling', abstract: 'GLP1 analogues were given to older adults.' }),
    paperRow({ id: 'MED-103', title: 'NAD+ precursors in muscle', abstract: 'Nicotinamide riboside raised NAD+ levels.' }),
    paperRow({ id: 'MED-104', title: 'p16INK4a-positive cells drive frailty', abstract: 'Clearing p16Ink4a cells helped.' }),
    paperRow({ id: 'MED-105', title: 'mTORC1 and IL-6 in the aging liver', abstract: 'IL6 rose with age.' }),
    paperRow({ id: 'MED-106', title: 'Dietary restriction in C. elegans', abstract: 'Worms lived longer.' }),
    paperRow({ id: 'MED-107', title: 'Klotho levels and cognition', abstract: 'Serum KLOTHO predicted memory.' }),
    paperRow({ id: 'MED-108', title: 'A senolytic cocktail', abstract: 'One drug.' }),
    paperRow({ id: 'MED-109', title: 'Senolytics compared', abstract: 'Several drugs.' }),
    paperRow({ id: 'MED-110', title: 'Naïve T cells in the elderly', abstract: 'Thymic involution.' }),
    paperRow({ id: 'MED-111', title: 'Cell biology', abstract: 'Nothing about peptides here.', keywords: ['autophagy'] }),
  ])
})
afterAll(() => database.close())

describe('biomedical tokens', () => {
  test('GLP-1 and GLP1 find each other', async () => {
    expect((await find('GLP-1')).sort()).toEqual(['MED-101', 'MED-102'])
    expect((await find('glp1')).sort()).toEqual(['MED-101', 'MED-102'])
  })

  test('NAD+ finds NAD+ and does not match everything', async () => {
    expect(await find('NAD+')).toEqual(['MED-103'])
  })

  test('p16INK4a, mTORC1, IL-6 and Klotho, in any case', async () => {
    expect(await find('p16ink4a')).toEqual(['MED-104'])
    expect(await find('MTORC1')).toEqual(['MED-105'])
    expect(await find('il-6')).toEqual(['MED-105'])
    expect(await find('klotho')).toEqual(['MED-107'])
  })

  test('C. elegans as a phrase', async () => {
    expect(await find('"C. elegans"')).toEqual(['MED-106'])
  })

  test('senolytic and senolytics stem alike', async () => {
    expect((await find('senolytics')).sort()).toEqual(['MED-108', 'MED-109'])
  })

  test('diacritics fold: naive finds naïve', async () => {
    expect(await find('naive')).toEqual(['MED-110'])
    expect(await find('NAÏVE')).toEqual(['MED-110'])
  })

  test('keywords are searched too', async () => {
    expect(await find('autophagy')).toEqual(['MED-111'])
  })

  test('odd syntax neither fails nor matches everything', async () => {
    expect((await find('"senolytic')).sort()).toEqual(['MED-108', 'MED-109'])
    expect(await find('-')).toEqual([])
    expect(await find('OR OR')).toEqual([])
    expect(await find('senolytic -cocktail')).toEqual(['MED-109'])
  })
})

describe('ranking', () => {
  let ranked: TestDatabase
  let rank: PostgresSearch
  beforeAll(async () => {
    ranked = await freshDatabase()
    rank = new PostgresSearch(ranked.db)
    await insertPapers(ranked.db, [
      paperRow({ id: 'MED-201', title: 'Muscle study', abstract: 'Rapamycin was given. Rapamycin again. Rapamycin once more.' }),
      paperRow({ id: 'MED-202', title: 'Rapamycin in muscle', abstract: 'A short abstract.' }),
      paperRow({ id: 'MED-203', title: 'Growth and decline', abstract: 'Lifespan was measured; rapamycin was later given to the mice.' }),
      paperRow({ id: 'MED-204', title: 'Growth and decline', abstract: 'Rapamycin lifespan extension was seen.' }),
      // Identical text: the order falls to relevance, then recency, then id.
      paperRow({ id: 'MED-205', title: 'Twin paper', abstract: 'Fisetin.', relevance: 2.2, indexedDate: '2026-10-01' }),
      paperRow({ id: 'MED-206', title: 'Twin paper', abstract: 'Fisetin.', relevance: 2.9, indexedDate: '2026-09-01' }),
      paperRow({ id: 'MED-207', title: 'Twin paper', abstract: 'Fisetin.', relevance: 2.2, indexedDate: '2026-10-05' }),
      paperRow({ id: 'MED-208', title: 'Twin paper', abstract: 'Fisetin.', relevance: 2.2, indexedDate: '2026-10-05' }),
    ])
  })
  afterAll(() => ranked.close())

  const hits = (q: string) => rank.search({ q, filters: everyPaper, limit: 100, after: null })

  test('a title match outranks abstract-only matches, however many', async () => {
    const found = (await hits('rapamycin')).map((h) => h.id)
    expect(found[0]).toBe('MED-202')
    expect(found.indexOf('MED-202')).toBeLessThan(found.indexOf('MED-201'))
  })

  test('words close together outrank the same words far apart', async () => {
    const found = (await hits('rapamycin lifespan')).map((h) => h.id)
    expect(found.indexOf('MED-204')).toBeLessThan(found.indexOf('MED-203'))
  })

  test('equal text matches fall to relevance, then recency, then id', async () => {
    expect((await hits('fisetin')).map((h) => h.id)).toEqual(['MED-206', 'MED-207', 'MED-208', 'MED-205'])
  })

  test('scores are in [0, 1) and never rise down the list', async () => {
    for (const q of ['rapamycin', 'rapamycin lifespan', 'fisetin', 'twin OR muscle']) {
      const scores = (await hits(q)).map((h) => h.score)
      expect(scores.length).toBeGreaterThan(0)
      for (const s of scores) expect(s >= 0 && s < 1).toBe(true)
      expect([...scores].sort((a, b) => b - a)).toEqual(scores)
    }
  })
})

describe('bounded candidate set', () => {
  let big: TestDatabase
  let bounded: PostgresSearch
  const total = MAX_RANKED_HITS + 300
  beforeAll(async () => {
    big = await freshDatabase()
    bounded = new PostgresSearch(big.db)
    // Every paper mentions mice; a few say so in the title, and they must all still lead.
    const rows = Array.from({ length: total }, (_, i) => paperRow({
      id: `MED-${300000 + i}`,
      title: i % 250 === 7 ? `Mice on a diet ${i}` : `A study ${i}`,
      abstract: `We used mice in experiment ${i}.`,
      relevance: 2 + (i % 97) / 100,
    }))
    for (let i = 0; i < rows.length; i += 500) await insertPapers(big.db, rows.slice(i, i + 500))
  })
  afterAll(() => big.close())

  test('ranks at most MAX_RANKED_HITS papers, title matches first', async () => {
    const walked: string[] = []
    let after = null
    for (;;) {
      const page = await bounded.search({ q: 'mice', filters: everyPaper, limit: 100, after })
      const items = page.slice(0, 100)
      walked.push(...items.map((h) => h.id))
      if (page.length <= 100) break
      const last = items[items.length - 1]
      after = { score: last.score, id: last.id }
    }
    expect(walked.length).toBe(MAX_RANKED_HITS)
    expect(new Set(walked).size).toBe(walked.length)
    const titled = Array.from({ length: total }, (_, i) => i).filter((i) => i % 250 === 7).map((i) => `MED-${300000 + i}`)
    expect(walked.slice(0, titled.length).sort()).toEqual(titled.sort())
  })
})
