/**
 * Issue 39: how a /papers page is best assembled from stored list items, measured apart from HTTP. One connection,
 * one statement at a time, on the default first page (min_relevance 2, newest first) read as the service reads it (a
 * window of the newest 1,000 papers, filtered):
 *   rows  the page's rows with each stored item (the service's way): the service puts the base in and joins them;
 *   agg   the whole `data` array written by PostgreSQL with string_agg, the base replaced there; the service sends it;
 *   live  the rows' columns, serialized by the service (the way before stored items).
 * Per page: CPU of this process and of its PostgreSQL backend (from /proc), and wall time; rounds interleaved.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/h_lists39_bench bun scripts/bench-list-items.ts [--rounds 5] [--pages 300]
 */
import postgres from 'postgres'
import { documentText } from '../src/documents/papers'
import { PAPER_SELECT } from '../src/resources/papers/queries'
import { serializeListedPaper } from '../src/resources/papers/serialize'
import { OPEN_LICENSES } from '../src/taxonomy'
import { cpuSeconds, loadAverage } from './bench/cpu'
import { median } from './bench/server'
import { numberOption } from './bench/wrk'

const rounds = numberOption('rounds', 5)
const pagesPerRun = numberOption('pages', 300)
const url = process.env.DATABASE_URL
if (!url) throw new Error('set DATABASE_URL')
const sql = postgres(url, { max: 1, onnotice: () => {} })
const [{ pid }] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`
const base = 'http://127.0.0.1:4101'
const escapedBase = JSON.stringify(base).slice(1, -1)

const PAGE = `from (select * from papers p order by p.indexed_date desc, p.id asc limit 1000) p
  left join paper_documents d on d.paper_id = p.id
  where p.relevance >= 2 order by p.indexed_date desc, p.id asc limit $1`

type Variant = (limit: number) => Promise<string>
const variants: Record<string, Variant> = {
  rows: async (limit) => {
    const rows = await sql.unsafe<{ indexedDate: string; id: string; stored: string }[]>(
      `select p.indexed_date::text as "indexedDate", p.id, nullif(d.item, '') as stored ${PAGE}`,
      [limit + 1],
      { prepare: true },
    )
    return `{"data":[${rows
      .slice(0, limit)
      .map((r) => documentText(r.stored, base))
      .join(',')}]}`
  },
  agg: async (limit) => {
    const [row] = await sql.unsafe<{ page: string; n: number }[]>(
      `select '{"data":[' || string_agg(replace(item, '\\u0001', $2), ',' order by n) filter (where n <= $3) || ']}' as page,
        count(*)::int as n, max(key) filter (where n = $3) as last
      from (select nullif(d.item, '') as item, p.indexed_date::text || ' ' || p.id as key,
        row_number() over (order by p.indexed_date desc, p.id asc) as n ${PAGE}) page`,
      [limit + 1, escapedBase, limit],
      { prepare: true },
    )
    return row.page
  },
  live: async (limit) => {
    const rows = await sql.unsafe(
      `select ${PAPER_SELECT.replace('$?', '$2')}, s.headline as "storyHeadline", s.dek as "storyDek"
      from (select p.* ${PAGE.replace('left join paper_documents d on d.paper_id = p.id', '')}) p
      left join stories s on s.paper_id = p.id order by p.indexed_date desc, p.id asc`,
      [limit + 1, [...OPEN_LICENSES]],
      { prepare: true },
    )
    // biome-ignore lint/suspicious/noExplicitAny: the row as PAPER_SELECT names it
    return JSON.stringify({ data: rows.slice(0, limit).map((r: any) => serializeListedPaper(r, base)) })
  },
}

// The three give the same bytes (rows and agg exactly; live is the reference).
for (const limit of [25, 100]) {
  const [a, b, c] = await Promise.all(Object.values(variants).map((v) => v(limit)))
  if (a !== c || b !== c) throw new Error(`variants differ at limit ${limit}`)
}

type Sample = { app: number; pg: number; wall: number }
const samples: Record<string, Sample[]> = {}
console.log(`load average at the start: ${loadAverage()}`)
for (let round = 0; round < rounds; round++) {
  for (const limit of [25, 100]) {
    for (const [name, run] of Object.entries(variants)) {
      for (let i = 0; i < 20; i++) await run(limit) // warm
      const app = process.cpuUsage()
      const pg = cpuSeconds(pid)
      const started = performance.now()
      for (let i = 0; i < pagesPerRun; i++) await run(limit)
      const wall = performance.now() - started
      const used = process.cpuUsage(app)
      const key = `${name} limit=${limit}`
      ;(samples[key] ??= []).push({
        app: (used.user + used.system) / 1000 / pagesPerRun,
        pg: ((cpuSeconds(pid) - pg) * 1000) / pagesPerRun,
        wall: wall / pagesPerRun,
      })
    }
  }
}
console.log(`load average at the end: ${loadAverage()}`)
console.log('| page | app CPU ms | PG CPU ms | together | wall ms |\n|---|---|---|---|---|')
for (const [key, runs] of Object.entries(samples)) {
  const app = median(runs.map((r) => r.app))
  const pg = median(runs.map((r) => r.pg))
  const wall = median(runs.map((r) => r.wall))
  console.log(`| ${key} | ${app.toFixed(3)} | ${pg.toFixed(3)} | ${(app + pg).toFixed(3)} | ${wall.toFixed(2)} |`)
}
await sql.end()
