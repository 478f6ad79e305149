/**
 * Read replicas on this machine (docs/scaling.md): a PostgreSQL primary and a streaming replica of
 * its own (initdb, pg_basebackup -R, spare ports; needs the server binaries and, as root, runuser),
 * a synthetic corpus, then the real service measured with wrk, interleaved: reads on the primary
 * (no DATABASE_REPLICA_URLS) against reads on the replica. Then the replica's lag, sampled by the
 * service's own probe, while the primary takes a bulk load.
 *   bun scripts/bench-replicas.ts [--papers 20000] [--runs 3] [--seconds 10] [--connections 16] [--port 3970]
 * The response cache is off, so every request reaches a database. Needs wrk.
 */
import { sql } from 'drizzle-orm'
import { openDatabase } from '../src/db/client'
import { OwnCluster, ownClusterSupport } from '../test/support/own-cluster'
import { benchKeys } from './bench/keys'
import { median, startServer } from './bench/server'
import { checkWrk, numberOption, wrk, type WrkResult } from './bench/wrk'

const papers = numberOption('papers', 20_000)
const runs = numberOption('runs', 3)
const seconds = numberOption('seconds', 10)
const connections = numberOption('connections', 16)
const port = numberOption('port', 3970)

const unsupported = ownClusterSupport()
if (unsupported) throw new Error(unsupported)
checkWrk()
const load = () => require('node:fs').readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')

async function cli(url: string, ...args: string[]) {
  const child = Bun.spawn([process.execPath, 'scripts/cli.ts', ...args], {
    env: { ...process.env, DATABASE_URL: url },
    stdout: 'ignore',
    stderr: 'inherit',
  })
  if ((await child.exited) !== 0) throw new Error(`cli ${args.join(' ')} failed`)
}

const primary = await OwnCluster.create()
let replica: OwnCluster | null = null
try {
  primary.configure('shared_buffers = 128MB')
  await primary.start()
  const started = performance.now()
  await cli(primary.url, 'migrate')
  await cli(primary.url, 'seed', 'synthetic', '--papers', String(papers), '--seed', '7')
  console.log(
    `primary on :${primary.port}, ${papers.toLocaleString('en-US')} papers seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  )
  const copy = performance.now()
  replica = await OwnCluster.replicaOf(primary)
  await replica.start()
  console.log(
    `replica on :${replica.port}, pg_basebackup -R and start in ${((performance.now() - copy) / 1000).toFixed(1)} s`,
  )

  const database = await openDatabase({ kind: 'postgres', url: primary.url, max: 2 })
  const keys = await benchKeys(database.db, 50)
  const ids = (await database.rows<{ id: string }>(sql`select id from papers order by md5(id) limit 2000`)).map(
    (r) => r.id,
  )
  await database.close()
  const words = [
    'rapamycin',
    'senolytic',
    'metformin',
    'autophagy',
    'telomere',
    'mitochondria',
    'klotho',
    'nad',
    'fasting',
    'sirtuin',
  ]
  const paths = [
    ...ids.map((id) => `/api/v1/papers/${id}`),
    ...words.flatMap((w) => [`/api/v1/search?q=${w}`, `/api/v1/papers?q=${w}&limit=20`, `/api/v1/claims?subject=${w}`]),
    ...Array.from({ length: 50 }, (_, i) => `/api/v1/papers?limit=${10 + i}`),
    '/api/v1/stories?limit=20',
    '/api/v1/entities?limit=50',
  ]

  const scenarios: Record<string, Record<string, string>> = {
    'reads on the primary': {},
    'reads on the replica': { DATABASE_REPLICA_URLS: replica.url },
  }
  const results: Record<string, WrkResult[]> = Object.fromEntries(Object.keys(scenarios).map((name) => [name, []]))
  console.log(
    `\n${paths.length} paths, ${connections} connections, ${seconds} s per run, response cache off; load average before: ${load()}`,
  )
  for (let run = 1; run <= runs; run++) {
    for (const [name, env] of Object.entries(scenarios)) {
      const server = await startServer(primary.url, port, { ...env, RESPONSE_CACHE_MB: '0' })
      try {
        await wrk(server.url, paths, keys, 2, connections) // warm-up
        const result = await wrk(server.url, paths, keys, seconds, connections)
        results[name].push(result)
        console.log(
          `run ${run} ${name.padEnd(22)} ${Math.round(result.rps)} req/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ` +
            `${result.serverErrors} 5xx, ${result.non2xx} non-2xx; load ${load()}`,
        )
      } finally {
        await server.stop()
      }
    }
  }
  console.log('\nmedians:')
  for (const [name, list] of Object.entries(results)) {
    console.log(
      `  ${name.padEnd(22)} ${Math.round(median(list.map((r) => r.rps)))} req/s, p50 ${median(list.map((r) => r.p50)).toFixed(1)} ms, p99 ${median(list.map((r) => r.p99)).toFixed(1)} ms`,
    )
  }

  // Lag while the primary takes a bulk load (COPY of more papers), as the service's probe sees it.
  const watched = await openDatabase({
    kind: 'postgres',
    url: primary.url,
    max: 2,
    replicas: { urls: [replica.url], maxLagMs: 3_600_000, probeMs: 200 },
  })
  const lags: number[] = []
  let loading = true
  const sampler = (async () => {
    while (loading) {
      await watched.replicas!.probe()
      const { lagMs } = watched.replicas!.state()[0]
      if (lagMs !== null) lags.push(lagMs)
      await Bun.sleep(200)
    }
  })()
  const bulk = performance.now()
  await cli(primary.url, 'seed', 'synthetic', '--papers', String(papers * 2), '--seed', '7') // adds as many again
  const bulkSeconds = (performance.now() - bulk) / 1000
  loading = false
  await sampler
  const caughtUp = performance.now()
  while (watched.replicas!.state()[0].lagMs === null || watched.replicas!.state()[0].lagMs! > 500) {
    await watched.replicas!.probe()
    await Bun.sleep(100)
  }
  await watched.close()
  console.log(
    `\nlag during a bulk load of ${papers.toLocaleString('en-US')} papers (${bulkSeconds.toFixed(0)} s; ${lags.length} samples): ` +
      `median ${median(lags)} ms, max ${Math.max(...lags)} ms; under 500 ms again ${((performance.now() - caughtUp) / 1000).toFixed(1)} s after it ended; load ${load()}`,
  )
} finally {
  await replica?.destroy()
  await primary.destroy()
}
