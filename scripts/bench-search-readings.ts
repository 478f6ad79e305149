/**
 * What reading a query in every spelling costs (drizzle/*_search_title_abstract_folding.sql, geroscope_variants), measured alone
 * and interleaved on one database: the same searches with every reading, then with the query as
 * written only (geroscope_variants replaced by one that returns its input, in this database, and put
 * back at the end), alternating, page 1 and the page after hit 1,000, limit 25, default filters.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<migrated corpus> bun scripts/bench-search-readings.ts [--rounds 4]
 * It redefines a function of the database it is given: run it on a benchmark copy, never a live one.
 */
import { sql } from 'drizzle-orm'
import { openDatabase } from '../src/db/client'
import type { SearchAfter } from '../src/search/backend'
import { PostgresSearch } from '../src/search/postgres'
import { median } from './bench/server'
import { numberOption } from './bench/wrk'

const rounds = numberOption('rounds', 4)
const url = process.env.DATABASE_URL
if (!url) throw new Error('set DATABASE_URL to a benchmark copy of the corpus')
const database = await openDatabase({ kind: 'postgres', url, max: 1 })
const QUERIES = [
  'aging',
  'mice',
  'senescence',
  'rapamycin mice',
  '"dietary restriction"',
  'rapamycin OR metformin',
  'senescence -mice',
  'tumour growth',
]
const filters = { minRelevance: 2 }
const search = new PostgresSearch(database.db)

const [{ body }] = await database.rows<{ body: string }>(
  sql`select pg_get_functiondef('geroscope_variants(text)'::regprocedure) as body`,
)
const asWritten = sql`create or replace function geroscope_variants(input text) returns text[] language sql immutable strict parallel safe return array[input]`
const setReadings = (all: boolean) => database.rows(all ? sql.raw(body) : asWritten)

async function time(q: string, after: SearchAfter | null) {
  const ms: number[] = []
  for (let i = 0; i < 11; i++) {
    const started = performance.now()
    await search.search({ q, filters, limit: 25, after })
    ms.push(performance.now() - started)
  }
  return median(ms.slice(2))
}

const results = new Map<string, { all: number[]; written: number[] }>()
try {
  for (let round = 0; round < rounds; round++) {
    for (const all of round % 2 === 0 ? [true, false] : [false, true]) {
      await setReadings(all)
      for (const q of QUERIES) {
        const deep = (await search.search({ q, filters, limit: 1000, after: null })).hits[999]
        const cursor: SearchAfter | null = deep
          ? { score: deep.score, id: deep.id, rank: deep.rank, rankedBy: 'postgres' }
          : null
        for (const [label, after] of [
          ['page 1', null],
          ['after hit 1,000', cursor],
        ] as const) {
          if (label !== 'page 1' && !after) continue
          const key = `${q} | ${label}`
          const entry = results.get(key) ?? { all: [], written: [] }
          entry[all ? 'all' : 'written'].push(await time(q, after))
          results.set(key, entry)
        }
      }
    }
  }
} finally {
  await setReadings(true)
  await database.close()
}
console.log(`| query | page | every reading, ms | as written only, ms | ratio |\n|---|---|---|---|---|`)
for (const [key, { all, written }] of results) {
  const [q, label] = key.split(' | ')
  console.log(
    `| \`${q}\` | ${label} | ${median(all).toFixed(1)} | ${median(written).toFixed(1)} | ${(median(all) / median(written)).toFixed(2)} |`,
  )
}
