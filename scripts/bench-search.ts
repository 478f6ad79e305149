/**
 * Search latency against PostgreSQL holding the synthetic corpus, 8 connections:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/geroscope_bench_seed bun scripts/bench-search.ts [--runs 3] [--seconds 10] [--load 0] [--synonyms 0]
 * Targets: /search p95 <= 100 ms, /papers?q= p95 <= 60 ms. Needs wrk (apt-get install wrk); --load 0
 * leaves the wrk runs out.
 * First, on one connection: whether the bounded search is exact (how many of its top 10 hits are the
 * top 10 of the same ranking written as one ORDER BY over every matching paper; expected: all 10, in
 * the same order), and how long one search takes alone, for page 1 and for the pages after hits 300,
 * 1,000, 5,000 and 20,000 (every hit can be paged to: a deep page should cost what page 1 costs).
 * --synonyms 0 times those single searches without the other names of entity names (src/search/synonyms.ts);
 * the service under wrk always expands them.
 */
import { sql } from 'drizzle-orm'
import { openDatabase } from '../src/db/client'
import { migrateDatabase } from '../src/db/migrate'
import type { SearchAfter } from '../src/search/backend'
import { PostgresSearch } from '../src/search/postgres'
import { expandQuery } from '../src/search/synonyms'
import { everyMatchRanked, queryForms } from '../src/search/tiers'
import { benchKeys } from './bench/keys'
import { median, startServer } from './bench/server'
import { checkWrk, measure, numberOption } from './bench/wrk'

const runs = numberOption('runs', 3)
const seconds = numberOption('seconds', 10)
const load = numberOption('load', 1) > 0
const synonyms = numberOption('synonyms', 1) > 0
const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) throw new Error('set DATABASE_URL to the PostgreSQL database holding the benchmark corpus')
if (load) checkWrk()

const QUERIES: [string, string][] = [
  ['common: aging', 'aging'],
  ['common: mice', 'mice'],
  ['common: senescence', 'senescence'],
  ['two terms', 'rapamycin mice'],
  ['phrase', '"dietary restriction"'],
  ['OR', 'rapamycin OR metformin'],
  ['exclusion', 'senescence -mice'],
]
const DEPTHS = [300, 1_000, 5_000, 20_000]

const database = await openDatabase({ kind: 'postgres', url: databaseUrl, max: 2 })
await migrateDatabase(database, databaseUrl) // the search functions may be newer than the corpus; the service would do it too
const [{ n }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from papers`)
console.log(`corpus: ${n.toLocaleString('en-US')} papers; ${runs} runs of ${seconds} s per query, 8 connections`)

// The bounded search against the exact ranking of every match (default filters), and alone.
const search = new PostgresSearch(database.db, { synonyms })
const filters = { minRelevance: 2 }
const timed = async (after: SearchAfter | null, q: string) => {
  const ms: number[] = []
  for (let i = 0; i < 17; i++) {
    const started = performance.now()
    await search.search({ q, filters, limit: 25, after })
    ms.push(performance.now() - started)
  }
  return median(ms.slice(2)).toFixed(1)
}
for (const [label, q] of QUERIES) {
  const bounded = (await search.search({ q, filters, limit: 10, after: null })).hits.slice(0, 10).map((h) => h.id)
  const expansions = synonyms ? expandQuery(q) : []
  const exact = (await database.rows<{ id: string }>(everyMatchRanked(q, sql`relevance >= 2`, 10, expansions))).map(
    (r) => r.id,
  )
  const [{ matches }] = await database.rows<{
    matches: number
  }>(sql`select count(*)::int as matches from papers, (${queryForms(q, expansions)}) f
    where search_vector @@ f.query and relevance >= 2`)
  const same = bounded.filter((id) => exact.includes(id)).length
  const order = bounded.join() === exact.join() ? 'same order' : 'ORDER DIFFERS'
  const deep: string[] = []
  for (const depth of DEPTHS) {
    if (depth >= matches) break
    // The cursor after hit `depth`, as a reader paging there would hold it (one long page gets there).
    const last = (await search.search({ q, filters, limit: depth, after: null })).hits[depth - 1]
    deep.push(
      `after hit ${depth.toLocaleString('en-US')} ${await timed({ score: last.score, id: last.id, rank: last.rank, rankedBy: last.rankedBy }, q)} ms`,
    )
  }
  console.log(
    `${label.padEnd(20)} ${matches.toLocaleString('en-US').padStart(9)} matches; top 10 shared with the exact ranking: ${same}/10, ${order}; ` +
      `alone, median of 15: page 1 ${await timed(null, q)} ms${deep.length ? `, ${deep.join(', ')}` : ''}`,
  )
}
if (!load) {
  await database.close()
  process.exit(0)
}
const keys = await benchKeys(database.db, 3000) // cached /papers?q= answers outrun 200 keys × 600 a minute
await database.close()

// The response cache keeps /search answers too, and the wrk runs repeat one query: without the cache
// they measure full text. RESPONSE_CACHE_MB=64 measures the cache instead.
const server = await startServer(databaseUrl, 3951, { RESPONSE_CACHE_MB: process.env.RESPONSE_CACHE_MB ?? '0' })
const rows: string[] = []
try {
  for (const [endpoint, target] of [
    ['search', 100],
    ['papers', 60],
  ] as const) {
    for (const [label, q] of QUERIES) {
      const path = `/api/v1/${endpoint}?q=${encodeURIComponent(q)}`
      const m = await measure(server.url, [path], keys, { runs, seconds, connections: 8 })
      const line = `| /${endpoint} | ${label} | ${Math.round(m.rps)} | ${m.p50.toFixed(1)} | ${m.p95.toFixed(1)} | ${m.p95 <= target ? 'met' : 'MISSED'} (p95 <= ${target} ms) |`
      console.log(line)
      rows.push(line)
    }
  }
} finally {
  await server.stop()
}
console.log(
  `\nmedians of ${runs} runs:\n| endpoint | query | req/s | p50 ms | p95 ms | target |\n|---|---|---|---|---|---|\n${rows.join('\n')}`,
)
