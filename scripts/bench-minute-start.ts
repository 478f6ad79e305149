/**
 * What the start of a minute costs the Data API: every key in use needs a new rate-limit reservation at
 * that moment (src/rate-limit/memory-store.ts). Starts the service (and, with --before DIR, another
 * checkout's), drives one path with 32 requests in flight and 3,000 pro keys in rotation from 8 s
 * before a minute starts to 8 s after, and prints requests, p50, p99 and the slowest request for each
 * second, and the database's commits during the run. The builds run one after the other, each across
 * its own minute's start.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/geroscope_speed bun scripts/bench-minute-start.ts \
 *     [--path /api/v1/stats] [--before DIR] [--port 28600]
 * The default path is answered from the response cache, so the reservations are most of the database's work.
 * With pg_stat_statements loaded in the database, it also prints how many statements wrote reservations.
 */
import postgres from 'postgres'
import { corpusWithKeys } from './bench/keys'
import { startServer } from './bench/server'
import { numberOption, stringOption } from './bench/wrk'

const path = stringOption('path', '/api/v1/stats')
const port = numberOption('port', 28600)
const before = stringOption('before', '')
const IN_FLIGHT = 32
const { databaseUrl, keys } = await corpusWithKeys(3000)
const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
/** Runs and rows of the reservation writes so far, or null without pg_stat_statements. */
const reservationWrites = async () => {
  try {
    const [row] = await sql<
      { calls: number; rows: number }[]
    >`select coalesce(sum(calls), 0)::int as calls, coalesce(sum(rows), 0)::int as rows
      from pg_stat_statements where query like 'insert into rate_limit_counters%' and dbid = (select oid from pg_database where datname = current_database())`
    return row
  } catch {
    return null
  }
}
const commits = async () =>
  Number(
    (
      await sql<{ n: string }[]>`select xact_commit::text as n from pg_stat_database where datname = current_database()`
    )[0].n,
  )

/** Latencies by second of the minute, from 8 s before a minute starts to 8 s after. */
async function acrossMinuteStart(cwd: string) {
  const server = await startServer(databaseUrl, port, {}, cwd)
  const bySecond = new Map<number, number[]>()
  let stop = false
  let next = 0
  const worker = async () => {
    while (!stop) {
      const started = performance.now()
      const response = await fetch(server.url + path, {
        headers: { authorization: `Bearer ${keys[next++ % keys.length]}` },
      })
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`)
      const second = Math.floor(Date.now() / 1000) % 60
      const times = bySecond.get(second) ?? []
      times.push(performance.now() - started)
      bySecond.set(second, times)
    }
  }
  // Every key once first: a key's first request reads it and reserves its day, which is not what is measured.
  for (let i = 0; i < keys.length; i += IN_FLIGHT) {
    await Promise.all(
      keys
        .slice(i, i + IN_FLIGHT)
        .map((key) =>
          fetch(server.url + path, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.arrayBuffer()),
        ),
    )
  }
  const now = Date.now() / 1000
  await Bun.sleep(((52 - (now % 60) + 60) % 60) * 1000) // to 8 s before a minute starts
  const committedBefore = await commits()
  const writesBefore = await reservationWrites()
  const workers = Array.from({ length: IN_FLIGHT }, worker)
  await Bun.sleep(16_000)
  stop = true
  await Promise.all(workers)
  const committed = (await commits()) - committedBefore
  const writesAfter = await reservationWrites()
  const writes =
    writesBefore && writesAfter
      ? `, ${(writesAfter.calls - writesBefore.calls).toLocaleString('en-US')} reservation statements writing ${(writesAfter.rows - writesBefore.rows).toLocaleString('en-US')} rows`
      : ''
  await server.stop()
  const lines = [...bySecond]
    .sort(([a], [b]) => ((a + 8) % 60) - ((b + 8) % 60))
    .map(([second, times]) => {
      times.sort((a, b) => a - b)
      return (
        `  :${String(second).padStart(2, '0')}  ${String(times.length).padStart(6)} requests  p50 ${times[Math.floor(times.length / 2)].toFixed(1).padStart(5)} ms` +
        `  p99 ${times[Math.floor(times.length * 0.99)].toFixed(1).padStart(6)} ms  slowest ${times.at(-1)!.toFixed(1).padStart(6)} ms`
      )
    })
  const requests = [...bySecond.values()].reduce((n, times) => n + times.length, 0)
  return `${requests.toLocaleString('en-US')} requests, ${committed.toLocaleString('en-US')} commits${writes}\n${lines.join('\n')}`
}

for (const [name, cwd] of [['this tree', process.cwd()], ...(before ? [['before', before]] : [])]) {
  console.log(`${name} (${cwd}), ${path}, ${IN_FLIGHT} in flight, ${keys.length} keys: ${await acrossMinuteStart(cwd)}`)
}
await sql.end()
process.exit(0)
