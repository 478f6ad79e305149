/**
 * The bulk export at scale (issue 18: 1M papers exported in at most 10 minutes on this machine),
 * against PostgreSQL holding the synthetic corpus (your own copy: the run migrates it):
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/geroscope_speed_<you> bun scripts/bench-export.ts [--runs 1] [--dir /tmp/x]
 * Each run is the job as the schedule and `cli export` run it (job lock, job_runs row, one snapshot,
 * every resource, manifest), into a fresh directory. Reported per run: total and per-resource
 * seconds, items, file sizes, this process's peak RSS (VmHWM) and its RSS sampled every 100 ms,
 * and the load average before and after; with several runs, the medians.
 */
import { sql } from 'drizzle-orm'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../src/db/client'
import { migrateDatabase } from '../src/db/migrate'
import { EXPORT_JOB, runExport } from '../src/pipeline/exports/run-export'
import { runJob } from '../src/jobs/run-job'
import { median } from './bench/server'
import { numberOption } from './bench/wrk'

const runs = numberOption('runs', 1)
const dirOption = process.argv.indexOf('--dir')
const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) throw new Error('set DATABASE_URL to your own copy of the benchmark corpus (never the shared one)')
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
const peakRss = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024

const database = await openDatabase({ kind: 'postgres', url: databaseUrl, max: 4 })
await migrateDatabase(database, databaseUrl)
const [{ n }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from papers`)
console.log(
  `corpus: ${n.toLocaleString('en-US')} papers; rss at start ${mb(process.memoryUsage().rss)}, peak so far ${mb(peakRss())}`,
)

const totals: number[] = []
for (let run = 1; run <= runs; run++) {
  const dir = dirOption > 0 ? process.argv[dirOption + 1]! : mkdtempSync(join(tmpdir(), 'geroscope-bench-export-'))
  let sampledPeak = 0
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss)
  }, 100)
  const loadBefore = load()
  const started = performance.now()
  const lines: string[] = []
  const counts = await runJob(database, EXPORT_JOB, () =>
    runExport(
      database,
      { exportDir: dir, publicBaseUrl: 'https://geroscope.example' },
      {
        onFile: (f) => {
          lines.push(
            `  ${f.resource.padEnd(8)} ${String(f.count).padStart(9)} items  ${mb(f.bytes).padStart(10)}  ${(f.ms / 1000).toFixed(1).padStart(6)} s  rss ${mb(process.memoryUsage().rss)}`,
          )
        },
      },
    ),
  )
  const seconds = (performance.now() - started) / 1000
  clearInterval(sampler)
  totals.push(seconds)
  console.log(
    `run ${run}: ${seconds.toFixed(1)} s in all, ${mb(counts.bytes)}; load average before ${loadBefore}, after ${load()}`,
  )
  for (const line of lines) console.log(line)
  console.log(`  peak RSS of this process (VmHWM) ${mb(peakRss())}; sampled RSS max during the run ${mb(sampledPeak)}`)
  if (dirOption < 0) rmSync(dir, { recursive: true, force: true })
}
if (runs > 1) console.log(`median of ${runs} runs: ${median(totals).toFixed(1)} s`)
await database.close()
