/**
 * Public site latency per page (issue 17: p95 ≤ 50 ms per page at a million papers), against
 * PostgreSQL holding the synthetic corpus:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/geroscope_bench_seed bun scripts/bench-site.ts [--rounds 200] [--runs 3]
 * Load the corpus first with `bun run cli seed synthetic --papers N`. Starts the real service
 * (WORKERS=off) and asks one page at a time (latency, not throughput), the pages interleaved round
 * by round so a busy moment on the machine falls on every page alike; each page's URL varies per
 * round (another paper, story, entity, topic, search word). Prints p50 and p95 per page for each
 * run, the median over runs, the corpus size and the load average before and after.
 */
import { sql } from 'drizzle-orm'
import { loadavg } from 'node:os'
import { openDatabase } from '../src/db/client'
import { TOPICS } from '../src/taxonomy'
import { median, startServer } from './bench/server'
import { numberOption } from './bench/wrk'

const rounds = numberOption('rounds', 200)
const runs = numberOption('runs', 3)
const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) throw new Error('set DATABASE_URL to the PostgreSQL database holding the benchmark corpus')

const database = await openDatabase({ kind: 'postgres', url: databaseUrl, max: 2 })
const [{ n }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from papers`)
const paperIds = (
  await database.rows<{ id: string }>(sql`select id from papers tablesample system (5) limit 2000`)
).map((r) => r.id)
const storyIds = (
  await database.rows<{ id: string }>(sql`select paper_id as id from stories tablesample system (20) limit 2000`)
).map((r) => r.id)
const entityPaths = (
  await database.rows<{ type: string; key: string }>(sql`select type, key from entities order by random() limit 500`)
).map((e) => `/entities/${encodeURIComponent(e.type)}/${encodeURIComponent(e.key)}`)
await database.close()
if (!paperIds.length || !storyIds.length || !entityPaths.length)
  throw new Error('the corpus has no papers, stories or entities: seed it first')

const WORDS = [
  'senolytic',
  'rapamycin',
  'klotho',
  'autophagy',
  'NAD',
  'mitochondrial',
  '"epigenetic clock"',
  'metformin OR acarbose',
  'inflammation -review',
]
const pick = <T>(list: T[], i: number) => list[(i * 7919) % list.length]

const PAGES: Record<string, (i: number) => string> = {
  home: () => '/',
  paper: (i) => `/papers/${pick(paperIds, i)}`,
  story: (i) => `/stories/${pick(storyIds, i)}`,
  topic: (i) => `/topics/${pick([...TOPICS], i)}`,
  entity: (i) => pick(entityPaths, i),
  search: (i) => `/search?q=${encodeURIComponent(pick(WORDS, i))}`,
  'feed (all)': () => '/feed.xml',
  'feed (topic)': (i) => `/topics/${pick([...TOPICS], i)}/feed.xml`,
  'feed (search)': (i) => `/search/feed.xml?q=${encodeURIComponent(pick(WORDS, i))}`,
  'feed (entity, JSON)': (i) => `${pick(entityPaths, i)}/feed.json`,
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]

const before = loadavg()
console.log(
  `corpus: ${n.toLocaleString('en-US')} papers; ${runs} runs of ${rounds} rounds, pages interleaved, one request at a time; load average ${before.map((l) => l.toFixed(2)).join(' ')}`,
)
const server = await startServer(databaseUrl, 3960 + (process.pid % 30))
const results: Record<string, { p50: number[]; p95: number[] }> = Object.fromEntries(
  Object.keys(PAGES).map((k) => [k, { p50: [], p95: [] }]),
)
try {
  for (const [name, path] of Object.entries(PAGES)) {
    // warm up: one of each, and check they answer
    const response = await fetch(`${server.url}${path(0)}`)
    if (response.status !== 200) throw new Error(`${name} ${path(0)} answered ${response.status}`)
    await response.arrayBuffer()
  }
  for (let run = 1; run <= runs; run++) {
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(PAGES).map((k) => [k, []]))
    for (let i = 0; i < rounds; i++) {
      for (const [name, path] of Object.entries(PAGES)) {
        const started = performance.now()
        const response = await fetch(`${server.url}${path(run * rounds + i)}`)
        await response.arrayBuffer()
        times[name].push(performance.now() - started)
        if (response.status !== 200) throw new Error(`${name} answered ${response.status}`)
      }
    }
    const line = Object.entries(times).map(([name, t]) => {
      results[name].p50.push(percentile(t, 0.5))
      results[name].p95.push(percentile(t, 0.95))
      return `${name} ${percentile(t, 0.5).toFixed(1)}/${percentile(t, 0.95).toFixed(1)}`
    })
    console.log(`run ${run} (p50/p95 ms): ${line.join(', ')}`)
  }
} finally {
  await server.stop()
}
console.log(
  `\nmedian of ${runs} runs, ms (corpus ${n.toLocaleString('en-US')} papers; load average before ${before.map((l) => l.toFixed(2)).join(' ')}, after ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}):`,
)
console.log('| page | p50 | p95 |\n|---|---|---|')
for (const [name, r] of Object.entries(results))
  console.log(`| ${name} | ${median(r.p50).toFixed(1)} | ${median(r.p95).toFixed(1)} |`)
