/**
 * Data API throughput and latency (issue 3) against PostgreSQL holding the synthetic corpus:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/geroscope_bench_seed bun scripts/bench-api.ts \
 *     [--runs 3] [--seconds 10] [--soak-seconds 300] [--only name,name]
 * Load the corpus first with `bun run cli seed synthetic --papers 1000000`. Needs wrk (apt-get install wrk).
 * Starts the real service (WORKERS=off), 32 connections from wrk on the same machine, 3,000 pro keys in
 * rotation (one pro key allows 600 requests a minute). Prints each run and the median of the runs.
 */
import { sql } from 'drizzle-orm'
import { openDatabase } from '../src/db/client'
import { STUDY_TYPES, TOPICS } from '../src/taxonomy'
import { benchKeys } from './bench/keys'
import { startServer } from './bench/server'
import { checkWrk, measure, numberOption, wrk, type WrkResult } from './bench/wrk'

const runs = numberOption('runs', 3)
const seconds = numberOption('seconds', 10)
const soakSeconds = numberOption('soak-seconds', 300)
const onlyIndex = process.argv.indexOf('--only')
const only = onlyIndex > 0 ? process.argv[onlyIndex + 1].split(',') : null

const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) throw new Error('set DATABASE_URL to the PostgreSQL database holding the benchmark corpus')
checkWrk()

const database = await openDatabase({ kind: 'postgres', url: databaseUrl, max: 2 })
const [{ n }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from papers`)
console.log(`corpus: ${n.toLocaleString('en-US')} papers; ${runs} runs of ${seconds} s per scenario, 32 connections`)
const keys = await benchKeys(database.db, 3000)
const ids = (await database.rows<{ id: string }>(sql`select id from papers tablesample system (1) limit 5000`)).map((r) => r.id)
const [newest] = await database.rows<{ d: string }>(sql`select (max(indexed_date) - 30)::text as d from papers`)
await database.close()

const server = await startServer(databaseUrl, 3950)

/** Walks `pages` pages of /papers to get the cursor of the page after them. */
async function cursorAfter(pages: number): Promise<string> {
  let cursor = ''
  for (let i = 0; i < pages; i++) {
    const response = await fetch(`${server.url}/api/v1/papers?limit=25${cursor ? `&cursor=${cursor}` : ''}`, { headers: { authorization: `Bearer ${keys[i % keys.length]}` } })
    const body = await response.json() as { pagination: { next_cursor: string } }
    cursor = body.pagination.next_cursor
  }
  return cursor
}

const combined = TOPICS.flatMap((topic) => STUDY_TYPES.slice(0, 3).map((st) =>
  `/api/v1/papers?topic=${topic}&study_type=${st}&since=${newest.d}&preprint=false`))

const scenarios: { name: string; paths: () => Promise<string[]> | string[]; target: string }[] = [
  { name: 'paper', paths: () => ids.map((id) => `/api/v1/papers/${id}`), target: '>= 4000 req/s, p99 <= 20 ms' },
  { name: 'papers', paths: () => ['/api/v1/papers'], target: '>= 2000 req/s, p99 <= 40 ms' },
  { name: 'claims', paths: () => ['/api/v1/claims'], target: '>= 2000 req/s, p99 <= 40 ms' },
  { name: 'stories', paths: () => ['/api/v1/stories'], target: '>= 2000 req/s, p99 <= 40 ms' },
  { name: 'entities', paths: () => ['/api/v1/entities'], target: '>= 2000 req/s, p99 <= 40 ms' },
  { name: 'papers-combined', paths: () => combined, target: 'p99 <= 40 ms' },
  { name: 'papers-page-1', paths: () => ['/api/v1/papers?limit=25'], target: 'reference for page 400' },
  { name: 'papers-page-400', paths: async () => [`/api/v1/papers?limit=25&cursor=${await cursorAfter(399)}`], target: '<= 1.3 x page 1' },
  { name: 'stats', paths: () => ['/api/v1/stats'], target: '>= 5000 req/s' },
  { name: 'topics', paths: () => ['/api/v1/topics'], target: '>= 5000 req/s' },
]

const format = (r: WrkResult) =>
  `${Math.round(r.rps).toString().padStart(6)} req/s  p50 ${r.p50.toFixed(1)} ms  p95 ${r.p95.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms`

const summary: string[] = []
try {
  for (const s of scenarios) {
    if (only && !only.includes(s.name)) continue
    const m = await measure(server.url, await s.paths(), keys, { runs, seconds, connections: 32 },
      (r, i) => console.log(`${s.name.padEnd(16)} run ${i}: ${format(r)}`))
    summary.push(`| ${s.name} | ${Math.round(m.rps)} | ${m.p50.toFixed(1)} | ${m.p99.toFixed(1)} | ${s.target} |`)
  }
  if (!only || only.includes('soak')) {
    const mixed = [...ids.slice(0, 500).map((id) => `/api/v1/papers/${id}`), '/api/v1/papers', '/api/v1/claims', '/api/v1/stories',
      '/api/v1/entities', '/api/v1/stats', '/api/v1/topics', ...combined.slice(0, 20)]
    const r = await wrk(server.url, mixed, keys, soakSeconds)
    const rss = server.rssMb()
    console.log(`soak ${soakSeconds} s mixed: ${format(r)}; server RSS after it: ${rss.toFixed(0)} MB`)
    summary.push(`| soak ${soakSeconds} s, mixed | ${Math.round(r.rps)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | RSS ${rss.toFixed(0)} MB (target <= 300 MB) |`)
  }
} finally {
  await server.stop()
}
console.log(`\nmedians of ${runs} runs:\n| scenario | req/s | p50 ms | p99 ms | target |\n|---|---|---|---|---|\n${summary.join('\n')}`)
