/**
 * The PostgreSQL ranking, as the search issue states it: a match in the title outranks one only in
 * the text, phrase and proximity matter, ties go to judgement relevance, then recency, then id, and
 * the score lies in [0, 1) and falls with the order.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { SearchAfter } from '../../src/search/backend'
import { PostgresSearch } from '../../src/search/postgres'
import { readScore } from '../../src/search/score'
import type { PaperFilters } from '../../src/resources/papers/queries'
import { freshDatabase, type TestDatabase } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'

let database: TestDatabase
let search: PostgresSearch

const everyPaper = { minRelevance: 0 }
const hits = async (q: string, filters: PaperFilters = everyPaper, limit = 100) =>
  (await search.search({ q, filters, limit, after: null })).hits
const ids = async (q: string, filters?: PaperFilters) => (await hits(q, filters)).map((h) => h.id)

/** Every hit of a query, page by page through the cursor. */
async function walkPages(q: string, filters: PaperFilters, limit: number) {
  const seen: { id: string; score: number }[] = []
  let after: SearchAfter | null = null
  for (;;) {
    const { hits: page } = await search.search({ q, filters, limit, after })
    seen.push(...page.slice(0, limit))
    if (page.length <= limit) return seen
    const last = page[limit - 1]
    after = { score: last.score, id: last.id, rank: last.rank, rankedBy: 'postgres' }
  }
}

beforeAll(async () => {
  database = await freshDatabase()
  search = new PostgresSearch(database.db)
  const text = { abstract: 'A study.', relevance: 2.5, indexedDate: '2026-10-01' }
  await insertPapers(database.db, [
    // "rapamycin mice", one paper per tier, the lower tiers better judged.
    paperRow({ ...text, id: 'MED-501', title: 'Rapamycin mice live longer', relevance: 2.0 }),
    paperRow({ ...text, id: 'MED-502', title: 'Old mice given rapamycin', relevance: 2.4 }),
    paperRow({ ...text, id: 'MED-503', title: 'Rapamycin in worms', abstract: 'Mice were spared.', relevance: 2.6 }),
    paperRow({
      ...text,
      id: 'MED-504',
      title: 'Liver ageing',
      abstract: 'We fed rapamycin mice chow.',
      relevance: 2.8,
    }),
    paperRow({
      ...text,
      id: 'MED-505',
      title: 'Liver ageing',
      abstract: 'Mice ate chow with rapamycin.',
      relevance: 3.0,
    }),
    // "fisetin": one tier; relevance, then recency, then id; unjudged last.
    paperRow({ ...text, id: 'MED-511', title: 'Fisetin', relevance: 2.2, indexedDate: '2026-10-01' }),
    paperRow({ ...text, id: 'MED-512', title: 'Fisetin', relevance: 2.9, indexedDate: '2026-09-01' }),
    paperRow({ ...text, id: 'MED-513', title: 'Fisetin', relevance: 2.2, indexedDate: '2026-10-05' }),
    paperRow({ ...text, id: 'MED-514', title: 'Fisetin', relevance: 2.2, indexedDate: '2026-10-05' }),
    paperRow({ ...text, id: 'MED-515', title: 'Fisetin', relevance: null, indexedDate: '2026-11-01' }),
    // A quoted phrase in the title beats its words apart in the title.
    paperRow({ ...text, id: 'MED-521', title: 'Restriction of dietary fat', relevance: 3.0 }),
    paperRow({ ...text, id: 'MED-522', title: 'Dietary restriction in flies', relevance: 2.0 }),
    paperRow({
      ...text,
      id: 'MED-523',
      title: 'Flies',
      abstract: 'Dietary restriction extended life.',
      relevance: 3.0,
    }),
    paperRow({
      ...text,
      id: 'MED-524',
      title: 'Worms',
      abstract: 'Dietary restriction in flies and worms.',
      relevance: 3.0,
    }),
    // Exclusions reach the abstract; filters apply.
    paperRow({ ...text, id: 'MED-531', title: 'Klotho in kidneys', abstract: 'Measured in mice.' }),
    paperRow({ ...text, id: 'MED-532', title: 'Klotho in kidneys', abstract: 'Measured in people.', topic: 'other' }),
    paperRow({
      ...text,
      id: 'PPR-533',
      source: 'PPR',
      preprint: true,
      title: 'Klotho in kidneys',
      abstract: 'Measured in people.',
    }),
  ])
})
afterAll(() => database.close())

describe('tiers', () => {
  test('title phrase, then title, then some words in the title, then text phrase, then text', async () => {
    expect(await ids('rapamycin mice')).toEqual(['MED-501', 'MED-502', 'MED-503', 'MED-504', 'MED-505'])
  })

  test('a quoted phrase matches only with its words together, in the title first', async () => {
    expect(await ids('"dietary restriction"')).toEqual(['MED-522', 'MED-523', 'MED-524'])
  })

  test('a title holding some of the words outranks the text alone, however well judged', async () => {
    // MED-522 holds all three in its title, MED-523 "flies" only, MED-524 none.
    expect(await ids('dietary restriction flies')).toEqual(['MED-522', 'MED-523', 'MED-524'])
  })

  test('an exclusion removes papers that mention it anywhere', async () => {
    expect((await ids('klotho -mice')).sort()).toEqual(['MED-532', 'PPR-533'])
  })
})

describe('ties within a tier', () => {
  test('fall to relevance, then recency, then id, with unjudged papers last', async () => {
    expect(await ids('fisetin')).toEqual(['MED-512', 'MED-513', 'MED-514', 'MED-511', 'MED-515'])
  })

  test('leave unjudged papers out when min_relevance is above 0', async () => {
    expect(await ids('fisetin', { minRelevance: 2 })).not.toContain('MED-515')
  })
})

describe('score', () => {
  test('lies in [0, 1), falls strictly between different tiers or judgements, and ties only on equal ones', async () => {
    for (const q of ['rapamycin mice', 'fisetin', '"dietary restriction"', 'klotho OR fisetin']) {
      const found = await hits(q)
      expect(found.length).toBeGreaterThan(0)
      for (const h of found) expect(h.score >= 0 && h.score < 1).toBe(true)
      for (let i = 1; i < found.length; i++) expect(found[i].score).toBeLessThanOrEqual(found[i - 1].score)
    }
    const fisetin = await hits('fisetin')
    expect(fisetin[1].score).toBe(fisetin[2].score) // MED-513 and MED-514: same relevance and date
    expect(new Set(fisetin.map((h) => h.score)).size).toBe(4)
  })

  test('tells its tier, relevance and date back, which is how a cursor resumes', async () => {
    const [best] = await hits('rapamycin mice')
    expect(readScore(best.score)).toEqual({ tier: 0, relevance: 2, indexedDate: '2026-10-01' })
    const unjudged = (await hits('fisetin')).at(-1)!
    expect(readScore(unjudged.score)).toEqual({ tier: 0, relevance: null, indexedDate: '2026-11-01' })
  })
})

describe('filters and paging', () => {
  test('every /papers filter applies', async () => {
    expect(await ids('klotho', { minRelevance: 2, preprint: true })).toEqual(['PPR-533'])
    expect(await ids('klotho', { minRelevance: 2, topic: ['other'] })).toEqual(['MED-532'])
    expect(await ids('fisetin', { minRelevance: 0, since: '2026-10-02' })).toEqual(['MED-513', 'MED-514', 'MED-515'])
  })

  test('the cursor walks every hit once, in order, whatever the page size', async () => {
    for (const q of ['rapamycin mice', 'fisetin', 'klotho OR fisetin OR rapamycin']) {
      const all = (await hits(q)).map((h) => h.id)
      for (const limit of [1, 2, 3]) expect((await walkPages(q, everyPaper, limit)).map((h) => h.id)).toEqual(all)
    }
  })
})

describe('depth', () => {
  // More than any bound: the 300 hits search once stopped at, and the 1,000 Meilisearch ranks.
  const MATCHES = 1_100
  let big: TestDatabase
  beforeAll(async () => {
    big = await freshDatabase()
    const rows = Array.from({ length: MATCHES }, (_, i) =>
      paperRow({
        id: `MED-${600000 + i}`,
        title: i % 50 === 7 ? `Mice on a diet ${i}` : `A study ${i}`,
        abstract: `We used mice (${i}).`,
        relevance: (200 + (i % 97)) / 100, // as writers round: Math.round(x * 100) / 100
      }),
    )
    await insertPapers(big.db, rows)
  })
  afterAll(() => big.close())

  test('every hit is served by cursor, once, title matches first, and no page says the ranking was cut', async () => {
    const deep = new PostgresSearch(big.db, { walk: 40 })
    const served: { id: string; score: number }[] = []
    let after: SearchAfter | null = null
    for (;;) {
      const { hits: page, cutAt } = await deep.search({ q: 'mice', filters: everyPaper, limit: 100, after })
      expect(cutAt).toBeNull()
      served.push(...page.slice(0, 100))
      if (page.length <= 100) break
      const last = page[99]
      after = { score: last.score, id: last.id, rank: last.rank, rankedBy: 'postgres' }
    }
    expect(served.length).toBe(MATCHES)
    expect(new Set(served.map((h) => h.id)).size).toBe(MATCHES)
    expect(served.slice(0, 22).every((h) => readScore(h.score).tier === 0)).toBe(true)
    expect(readScore(served[22].score).tier).toBe(3)
    for (let i = 1; i < served.length; i++) expect(served[i].score).toBeLessThanOrEqual(served[i - 1].score)
  })
})
