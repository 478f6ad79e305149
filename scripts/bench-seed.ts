/**
 * Loads the benchmark corpus into a fresh PostgreSQL database and times it. The database is kept
 * afterwards (the API benchmarks reuse it) unless --drop is given.
 *   bun scripts/bench-seed.ts [--papers 1000000] [--seed 1] [--end-date YYYY-MM-DD] [--days 90]
 *                             [--chunk 10000] [--url postgres://postgres@127.0.0.1:5432] [--database NAME] [--drop]
 */
import { freshBenchDatabase } from './bench/database'
import { loadCorpus, type LoadProgress } from '../src/seed/bulk-load'

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback
}
const integer = (name: string, fallback: number) => {
  const value = Number(option(name, String(fallback)).replaceAll('_', '').replaceAll(',', ''))
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number`)
  return value
}

const papers = integer('papers', 1_000_000)
const seed = integer('seed', 1)
const days = integer('days', 90)
const chunk = integer('chunk', 10_000)
const endDate = option('end-date', new Date().toISOString().slice(0, 10))
const server = option('url', 'postgres://postgres@127.0.0.1:5432')
const drop = process.argv.includes('--drop')
const DATABASE = option('database', 'geroscope_bench_seed')
if (!/^[a-z_][a-z0-9_]*$/.test(DATABASE)) throw new Error('--database must be a plain lowercase name')

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

const bench = await freshBenchDatabase(server, DATABASE, 8)
const { database, url } = bench
console.error(`loading ${fmt(papers)} papers (seed ${seed}, ${days} days to ${endDate}) into ${DATABASE}`)

let lastReport = 0
const onProgress = ({ papers: done, elapsedMs }: LoadProgress) => {
  if (done < papers && elapsedMs - lastReport < 5_000) return
  lastReport = elapsedMs
  const rate = done / (elapsedMs / 1000)
  console.error(
    `  ${fmt(done)} / ${fmt(papers)} papers (${((done / papers) * 100).toFixed(1)}%), ${fmt(rate)} papers/s, ${(elapsedMs / 1000).toFixed(0)} s`,
  )
}

const started = performance.now()
const counts = await loadCorpus(database, { papers, seed, endDate, days, chunk }, onProgress)
const elapsed = (performance.now() - started) / 1000

const rows: Record<string, number> = {}
for (const table of ['papers', 'stories', 'paper_entities', 'claims', 'entities']) {
  const [row] = await database.pg!.unsafe(`select count(*)::bigint as n from ${table}`)
  rows[table] = Number(row!.n)
}
await database.close()
if (drop) await bench.drop()

console.log(`elapsed ${elapsed.toFixed(1)} s`)
for (const [table, n] of Object.entries(rows)) console.log(`${table.padEnd(15)} ${fmt(n).padStart(12)}`)
console.log(`${fmt(counts.papers / elapsed)} papers/s`)
console.log(drop ? `dropped ${DATABASE}` : `kept ${url}`)
