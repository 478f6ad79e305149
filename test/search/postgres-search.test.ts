/**
 * PostgreSQL full-text search (the default backend, also on PGlite): the biomedical tokens readers
 * type. The ranking is tested in ranking.test.ts and exact.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { PostgresSearch } from '../../src/search/postgres'
import { freshDatabase, type TestDatabase } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'

let database: TestDatabase
let search: PostgresSearch

const everyPaper = { minRelevance: 0 }
const find = async (q: string, limit = 100) =>
  (await search.search({ q, filters: everyPaper, limit, after: null })).hits.map((h) => h.id)

beforeAll(async () => {
  database = await freshDatabase()
  search = new PostgresSearch(database.db)
  await insertPapers(database.db, [
    paperRow({
      id: 'MED-101',
      title: 'GLP-1 receptor agonists and biological age',
      abstract: 'Semaglutide lowered an epigenetic clock.',
    }),
    paperRow({ id: 'MED-102', title: 'Incretin signalling', abstract: 'GLP1 analogues were given to older adults.' }),
    paperRow({
      id: 'MED-103',
      title: 'NAD+ precursors in muscle',
      abstract: 'Nicotinamide riboside raised NAD+ levels.',
    }),
    paperRow({
      id: 'MED-104',
      title: 'p16INK4a-positive cells drive frailty',
      abstract: 'Clearing p16Ink4a cells helped.',
    }),
    paperRow({ id: 'MED-105', title: 'mTORC1 and IL-6 in the aging liver', abstract: 'IL6 rose with age.' }),
    paperRow({ id: 'MED-106', title: 'Dietary restriction in C. elegans', abstract: 'Worms lived longer.' }),
    paperRow({ id: 'MED-107', title: 'Klotho levels and cognition', abstract: 'Serum KLOTHO predicted memory.' }),
    paperRow({ id: 'MED-108', title: 'A senolytic cocktail', abstract: 'One drug.' }),
    paperRow({ id: 'MED-109', title: 'Senolytics compared', abstract: 'Several drugs.' }),
    paperRow({ id: 'MED-110', title: 'Naïve T cells in the elderly', abstract: 'Thymic involution.' }),
    paperRow({
      id: 'MED-111',
      title: 'Cell biology',
      abstract: 'Nothing about peptides here.',
      keywords: ['autophagy'],
      meshHeadings: [{ descriptor: 'Sirtuins', major: true, qualifiers: [] }],
    }),
    paperRow({ id: 'MED-112', title: 'The NADH/NAD+ ratio and AMPK/mTOR', abstract: 'Measured in worms.' }),
    paperRow({ id: 'MED-113', title: 'NADH oxidase', abstract: 'An enzyme.' }),
  ])
})
afterAll(() => database.close())

describe('biomedical tokens', () => {
  test('GLP-1 and GLP1 find each other', async () => {
    expect((await find('GLP-1')).sort()).toEqual(['MED-101', 'MED-102'])
    expect((await find('glp1')).sort()).toEqual(['MED-101', 'MED-102'])
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

  // The contract: "over title and abstract". A hit on a keyword or a MeSH heading could not be seen.
  test('keywords and MeSH headings are not searched', async () => {
    expect(await find('autophagy')).toEqual([])
    expect(await find('sirtuins')).toEqual([])
  })

  test('NAD+ and NAD find each other, NADH stays apart, and names joined by a slash are each found', async () => {
    expect(await find('NAD')).toEqual(['MED-103', 'MED-112'])
    expect(await find('NAD+')).toEqual(['MED-103', 'MED-112'])
    expect(await find('NADH')).toEqual(['MED-112', 'MED-113'])
    expect(await find('mTOR')).toEqual(['MED-112'])
    expect(await find('AMPK/mTOR')).toEqual(['MED-112'])
  })

  test('odd syntax neither fails nor matches everything', async () => {
    expect((await find('"senolytic')).sort()).toEqual(['MED-108', 'MED-109'])
    expect(await find('-')).toEqual([])
    expect(await find('OR OR')).toEqual([])
    expect(await find('senolytic -cocktail')).toEqual(['MED-109'])
  })

  // Only a minus where a word starts excludes; websearch_to_tsquery alone read "<->" as AND NOT and
  // silently dropped the very paper asked for (drizzle/0008_query_minus.sql).
  test('a minus after punctuation separates words instead of excluding one', async () => {
    expect(await find('senolytic<->cocktail')).toEqual(['MED-108'])
    expect(await find('senolytic,-cocktail')).toEqual(['MED-108'])
    expect(await find('-cocktail senolytic')).toEqual(['MED-109'])
    expect(await find('senolytic - cocktail')).toEqual(['MED-109'])
  })
})
