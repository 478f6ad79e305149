/**
 * How much of a list page's CPU is the service's own, and how much any server on this stack pays:
 * the real service's list (/api/v1/papers unless --path says /api/v1/claims or
 * /api/v1/stories) with the cache off, against one-route servers that do only the unavoidable part
 * of it (scripts/bench/floor-server.ts: the page's bytes as they are; the page stringified; the same
 * statement through postgres.js and through Bun.SQL, serialized by the same code).
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/geroscope_speed bun scripts/bench-floor.ts [--path /api/v1/claims or /api/v1/papers?limit=100] [--runs 3] [--seconds 6]
 * Interleaved rounds, 32 connections from wrk, CPU per request of the server process from /proc;
 * medians of the rounds and the load average at each run.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { captureStatements } from './bench/ceiling'
import { cpuSeconds, loadAverage } from './bench/cpu'
import { corpusWithKeys } from './bench/keys'
import { median, startServer } from './bench/server'
import { checkWrk, numberOption, stringOption, wrk } from './bench/wrk'

const runs = numberOption('runs', 3)
const seconds = numberOption('seconds', 6)
const port = numberOption('port', 28620)
const path = stringOption('path', '/api/v1/papers')
checkWrk()
const { databaseUrl, keys } = await corpusWithKeys()
const dir = mkdtempSync(join(tmpdir(), 'geroscope-floor-'))
const [statements] = await captureStatements(databaseUrl, keys[0], [path])
if (statements.length !== 1)
  throw new Error(`${path} sends ${statements.length} statements; this benchmark replays one`)
writeFileSync(join(dir, 'statement.json'), JSON.stringify(statements[0]))
const service = await startServer(databaseUrl, port, { RESPONSE_CACHE_MB: '0' })
const first = await fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${keys[0]}` } })
writeFileSync(join(dir, 'page.json'), await first.text())
await service.stop()
console.log(
  `${path}; load average at start: ${loadAverage()}; the page: ${Bun.file(join(dir, 'page.json')).size.toLocaleString('en-US')} bytes`,
)

type Server = { url: string; path: string; pid: number; stop: () => Promise<void> }
async function floorServer(mode: string): Promise<Server> {
  const child = Bun.spawn([process.execPath, 'scripts/bench/floor-server.ts', mode, String(port)], {
    env: {
      ...process.env,
      FLOOR_PATH: path,
      FLOOR_PAGE: join(dir, 'page.json'),
      FLOOR_STATEMENT: join(dir, 'statement.json'),
    },
    stdout: 'pipe',
    stderr: 'inherit',
  })
  await child.stdout.getReader().read() // "ready"
  return {
    url: `http://127.0.0.1:${port}`,
    path: '/floor',
    pid: child.pid,
    stop: async () => {
      child.kill()
      await child.exited
    },
  }
}
async function realService(): Promise<Server> {
  const s = await startServer(databaseUrl, port, { RESPONSE_CACHE_MB: '0' })
  return { url: s.url, path, pid: s.pid, stop: s.stop }
}

const modes: [string, () => Promise<Server>][] = [
  ['bytes: the recorded page as it is', () => floorServer('bytes')],
  ['stringify: the page stringified', () => floorServer('stringify')],
  ['rows: statement, serializer, ETag', () => floorServer('rows')],
  ['bunsql: the same through Bun.SQL', () => floorServer('bunsql')],
  ['the service, cache off', realService],
]
const cpu = new Map<string, number[]>()
const rps = new Map<string, number[]>()
const p99 = new Map<string, number[]>()
for (let round = 1; round <= runs; round++) {
  for (const [name, start] of modes) {
    const server = await start()
    await wrk(server.url, [server.path], keys, 2)
    const before = cpuSeconds(server.pid)
    const run = await wrk(server.url, [server.path], keys, seconds)
    const perRequest = ((cpuSeconds(server.pid) - before) * 1000) / run.requests
    await server.stop()
    if (run.non2xx > 0 || run.errors > 0)
      throw new Error(`${name}: ${run.non2xx} non-2xx answers, ${run.errors} socket errors`)
    for (const [map, value] of [
      [cpu, perRequest],
      [rps, run.rps],
      [p99, run.p99],
    ] as const)
      map.set(name, [...(map.get(name) ?? []), value])
    console.log(
      `round ${round} ${name.padEnd(36)} ${Math.round(run.rps).toString().padStart(6)} req/s  p99 ${run.p99.toFixed(1).padStart(6)} ms  CPU ${perRequest.toFixed(3)} ms/req  load ${loadAverage()}`,
    )
  }
}
console.log(`\nload average at end: ${loadAverage()}\nmedians of ${runs} interleaved rounds:`)
console.log('| server | req/s | p99 ms | CPU ms/req |\n|---|---|---|---|')
for (const [name] of modes) {
  console.log(
    `| ${name} | ${Math.round(median(rps.get(name)!))} | ${median(p99.get(name)!).toFixed(1)} | ${median(cpu.get(name)!).toFixed(3)} |`,
  )
}
