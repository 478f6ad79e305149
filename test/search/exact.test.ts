/**
 * The bounded search is exact: paging through it gives the same papers, in the same order, as one
 * ORDER BY over every match (everyMatchRanked), for common and rare words, phrases, OR, exclusions
 * and filters, and for names that search their other names too (rapamycin: sirolimus). Small walks
 * make both ways of finding a tier's papers happen on a small corpus: a walk long enough for the
 * common tiers, and the GIN scan for the rare ones.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, sql } from 'drizzle-orm'
import type { SearchAfter } from '../../src/search/backend'
import { PostgresSearch } from '../../src/search/postgres'
import { expandQuery } from '../../src/search/synonyms'
import { everyMatchRanked } from '../../src/search/tiers'
import { paperConditions, type PaperFilters } from '../../src/resources/papers/queries'
import { freshDatabase, type TestDatabase } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'

let database: TestDatabase

const WORDS = [
  'rapamycin',
  'mice',
  'aging',
  'senescence',
  'dietary',
  'restriction',
  'metformin',
  'worms',
  'liver',
  'muscle',
  'cells',
  'lifespan',
]
const QUERIES = [
  'mice',
  'aging',
  'klotho',
  'rapamycin mice',
  'mice rapamycin',
  '"dietary restriction"',
  'dietary restriction mice',
  'rapamycin OR metformin',
  'senescence -mice',
  'mice -"dietary restriction"',
  'klotho worms',
  'rapamycin mice -worms',
]
const FILTERS: PaperFilters[] = [
  { minRelevance: 0 },
  { minRelevance: 2 },
  { minRelevance: 1, topic: ['senescence', 'other'], since: '2026-09-15' },
]

/** A small deterministic corpus: common and rare words, phrases kept together half the time. */
function corpus(count: number) {
  let seed = 7
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647
  const pick = () => WORDS[Math.floor(random() * random() * WORDS.length)] // early words are commoner
  const phrase = (n: number) =>
    Array.from({ length: n }, () => (random() < 0.15 ? 'dietary restriction' : pick())).join(' ')
  return Array.from({ length: count }, (_, i) =>
    paperRow({
      id: `MED-${700000 + i}`,
      // Sirolimus is another name of rapamycin: the queries for rapamycin find these papers too (synonyms.ts).
      title: `${phrase(1 + Math.floor(random() * 4))}${i % 37 === 0 ? ' klotho' : ''}${i % 31 === 5 ? ' sirolimus mice' : ''}`,
      abstract: `${phrase(6 + Math.floor(random() * 10))}${i % 23 === 0 ? ' klotho and worms' : ''}${i % 29 === 3 ? ' sirolimus' : ''}.`,
      relevance: random() < 0.1 ? null : Math.round(random() * 300) / 100,
      indexedDate: `2026-${random() < 0.5 ? '09' : '10'}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`,
      topic: random() < 0.5 ? 'senescence' : 'other',
    }),
  )
}

async function exact(q: string, filters: PaperFilters): Promise<string[]> {
  const where = and(...paperConditions({ ...filters, q: undefined })) ?? sql`true`
  // With the names the query expands (rapamycin, metformin: synonyms.ts), as /search reads it.
  return (await database.rows<{ id: string }>(everyMatchRanked(q, where, 100_000, expandQuery(q)))).map((r) => r.id)
}

/** The walks and GIN scans (CTEs of the statement) that gave rows for the first page of q. */
async function stepsTaken(search: PostgresSearch, q: string): Promise<Set<string>> {
  const query = search.query({ q, filters: { minRelevance: 0 }, limit: 5, after: null })
  const [row] = await database.rows<Record<string, unknown>>(sql`explain (analyze, format json) ${query}`)
  const json = Object.values(row)[0]
  const [{ Plan }] = (typeof json === 'string' ? JSON.parse(json) : json) as { Plan: PlanNode }[]
  const steps = new Set<string>()
  const visit = (node: PlanNode) => {
    const name = /^CTE ((?:walk|candidates)\d)$/.exec(node['Subplan Name'] ?? '')?.[1]
    if (name && node['Actual Rows'] > 0) steps.add(name)
    for (const child of node.Plans ?? []) visit(child)
  }
  visit(Plan)
  return steps
}
type PlanNode = { 'Subplan Name'?: string; 'Actual Rows': number; Plans?: PlanNode[] }

async function paged(search: PostgresSearch, q: string, filters: PaperFilters, limit: number): Promise<string[]> {
  const seen: string[] = []
  let after: SearchAfter | null = null
  for (;;) {
    const { hits: page } = await search.search({ q, filters, limit, after })
    seen.push(...page.slice(0, limit).map((h) => h.id))
    if (page.length <= limit) return seen
    const last = page[limit - 1]
    after = { score: last.score, id: last.id, rank: last.rank, rankedBy: 'postgres' }
  }
}

describe('on a corpus of 250 papers', () => {
  beforeAll(async () => {
    database = await freshDatabase()
    await insertPapers(database.db, corpus(250))
    // The table's size known, as on a live database: thin title tiers may then be walked further (tiers.ts).
    await database.rows(sql`analyze papers`)
  })
  afterAll(() => database.close())

  test('the queries cover common, rare and empty results', async () => {
    const sizes = await Promise.all(QUERIES.map(async (q) => (await exact(q, { minRelevance: 0 })).length))
    expect(Math.max(...sizes)).toBeGreaterThan(100)
    expect(sizes.filter((n) => n > 0 && n < 20).length).toBeGreaterThan(0)
  })

  // The score holds relevance in thousandths: a finer value would order differently in the
  // index than in the score, so the database refuses it (and anything outside 0..3).
  test.each([0.1234, 2.0300000000000002, 3.01, -0.5])('a relevance of %p is refused', async (relevance) => {
    const refused = await insertPapers(database.db, [paperRow({ id: 'MED-799999', relevance })]).then(
      () => null,
      (error) => error,
    )
    expect(String(refused?.cause ?? refused)).toContain('papers_relevance_grain')
  })

  test('walks of 60 papers find a common tier by walking and a rare one by GIN scan', async () => {
    const search = new PostgresSearch(database.db, { walk: 60 })
    expect(await stepsTaken(search, 'mice')).toEqual(new Set(['walk0']))
    expect(await stepsTaken(search, 'klotho')).toEqual(new Set(['candidates0']))
  })

  // Walks of 4 papers nearly always fall short (GIN scans); walks of 60 find the common tiers'
  // next 6 hits (see above); walks of 5000 read the whole corpus.
  test.each([4, 60, 5000])('pages of 5 with walks of %d papers match the exact ranking', async (walk) => {
    const search = new PostgresSearch(database.db, { walk })
    for (const q of QUERIES) {
      for (const filters of FILTERS)
        expect({ q, filters, ids: await paged(search, q, filters, 5) }).toEqual({
          q,
          filters,
          ids: await exact(q, filters),
        })
    }
  })
})

describe('on a corpus where 1,100 papers match', () => {
  beforeAll(async () => {
    database = await freshDatabase()
    await insertPapers(
      database.db,
      corpus(1_100).map((p, i) => ({ ...p, abstract: `${p.abstract} Mice ${i}.` })),
    )
  })
  afterAll(() => database.close())

  // Past the 300 hits search once stopped at: every match is reached, in the exact order.
  test('pages reach every match, in the exact order', async () => {
    const search = new PostgresSearch(database.db, { walk: 40 })
    for (const q of ['mice', 'rapamycin mice']) {
      const ids = await paged(search, q, { minRelevance: 0 }, 90)
      expect(ids.length).toBeGreaterThan(q === 'mice' ? 1_000 : 100)
      expect(ids).toEqual(await exact(q, { minRelevance: 0 }))
    }
  }, 180_000) // some 60 pages, each a search: minutes on a loaded machine
})

// A title tier whose scout finds hits, but too few to project to a page, is walked further when that costs less than
// reading the row of every title that holds the words (tiers.ts `stretchedWalk`): here 100 titles of 2,000.
describe('on an analysed corpus of 2,000 papers where one title in 20 says klotho', () => {
  beforeAll(async () => {
    database = await freshDatabase()
    await insertPapers(
      database.db,
      Array.from({ length: 2_000 }, (_, i) =>
        paperRow({
          id: `MED-${800000 + i}`,
          title: `${i % 20 === 0 ? 'Klotho' : 'Rapamycin'} in ageing mice`,
          abstract: `Lifespan of mice${i % 7 === 0 ? ' lacking klotho' : ''}.`,
          relevance: (3000 - i) / 1000, // distinct, so the index holds the papers in this order
        }),
      ),
    )
    await database.rows(sql`analyze papers`)
  })
  afterAll(() => database.close())

  test('a thin title tier is walked further instead of read from the GIN index, and pages stay exact', async () => {
    const search = new PostgresSearch(database.db, { walk: 100 })
    // The scout (20 papers) finds 1 klotho title: 5 projected over the walk, 6 needed.
    expect(await stepsTaken(search, 'klotho')).toEqual(new Set(['walk0']))
    for (const q of ['klotho', 'klotho mice', 'mice klotho', 'klotho -lacking'])
      expect({ q, ids: await paged(search, q, { minRelevance: 0 }, 5) }).toEqual({
        q,
        ids: await exact(q, { minRelevance: 0 }),
      })
  }, 180_000)
})
