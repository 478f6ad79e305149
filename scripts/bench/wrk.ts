/**
 * Load from wrk (Debian package `wrk`), a C load generator, so the client costs little of the two
 * cores the server also needs. Each request takes the next path from a list and the next API key,
 * so many keys share the load (one pro key allows 600 requests a minute).
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { median } from './server'

export type WrkResult = {
  rps: number
  p50: number
  p95: number
  p99: number
  requests: number
  errors: number
  non2xx: number
  serverErrors: number
}

const LUA = `
local paths, keys = {}, {}
for line in io.lines(os.getenv("WRK_PATHS")) do paths[#paths + 1] = line end
for line in io.lines(os.getenv("WRK_KEYS")) do keys[#keys + 1] = line end
local i, k = 0, 0
local encoding = os.getenv("WRK_ACCEPT_ENCODING") -- nil: no Accept-Encoding, answers uncompressed
local thread_no = 0
local threads = {}
setup = function(thread) thread_no = thread_no + 1; thread:set("offset", thread_no * 7919); threads[#threads + 1] = thread end
init = function() i = offset or 0; k = offset or 0 end
request = function()
  i = i % #paths + 1
  k = k % #keys + 1
  return wrk.format("GET", paths[i], { ["Authorization"] = "Bearer " .. keys[k], ["Accept-Encoding"] = encoding })
end
server_errors = 0 -- a global of each thread's state, summed in done()
response = function(status) if status >= 500 then server_errors = server_errors + 1 end end
done = function(summary, latency, requests)
  local e = summary.errors
  local s5 = 0
  for _, thread in ipairs(threads) do s5 = s5 + (thread:get("server_errors") or 0) end
  io.write(string.format("RESULT %d %d %d %d %d %d %d\\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), e.connect + e.read + e.write + e.status + e.timeout, s5))
end
`

export function checkWrk(): void {
  if (!Bun.which('wrk')) throw new Error('wrk is not installed: apt-get install wrk')
}

/** `acceptEncoding`: sent with every request, as browsers and most HTTP libraries do; omitted, none is sent. */
export async function wrk(
  url: string,
  paths: string[],
  keys: string[],
  seconds: number,
  connections = 32,
  acceptEncoding?: string,
): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), 'geroscope-wrk-'))
  writeFileSync(join(dir, 'script.lua'), LUA)
  writeFileSync(join(dir, 'paths'), paths.join('\n') + '\n')
  writeFileSync(join(dir, 'keys'), keys.join('\n') + '\n')
  const child = Bun.spawn(
    ['wrk', '-t2', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', join(dir, 'script.lua'), url],
    {
      env: {
        ...process.env,
        WRK_PATHS: join(dir, 'paths'),
        WRK_KEYS: join(dir, 'keys'),
        ...(acceptEncoding ? { WRK_ACCEPT_ENCODING: acceptEncoding } : {}),
      },
      stdout: 'pipe',
      stderr: 'inherit',
    },
  )
  const out = await new Response(child.stdout).text()
  await child.exited
  const m = /RESULT (\d+) (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(out)
  if (!m) throw new Error(`wrk gave no result:\n${out}`)
  const [requests, durationUs, p50, p95, p99, errors, serverErrors] = m.slice(1).map(Number)
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0)
  return {
    rps: requests / (durationUs / 1e6),
    p50: p50 / 1000,
    p95: p95 / 1000,
    p99: p99 / 1000,
    requests,
    errors,
    non2xx,
    serverErrors,
  }
}

/**
 * One scenario: checks that its first path answers 200, warms up, then runs wrk `runs`
 * times (any non-2xx answer or socket error stops the benchmark) and returns each run and the medians.
 */
export async function measure(
  url: string,
  paths: string[],
  keys: string[],
  { runs, seconds, connections }: { runs: number; seconds: number; connections: number },
  onRun: (result: WrkResult, run: number) => void = () => {},
): Promise<WrkResult> {
  const check = await fetch(url + paths[0], { headers: { authorization: `Bearer ${keys[0]}` } })
  if (check.status !== 200) throw new Error(`${paths[0]} answered ${check.status}: ${await check.text()}`)
  // Every path asked once (the service caches answers: the runs measure its steady state), then 2 s of load.
  let next = 0
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let i = next++; i < paths.length; i = next++) {
        await (
          await fetch(url + paths[i], { headers: { authorization: `Bearer ${keys[i % keys.length]}` } })
        ).arrayBuffer()
      }
    }),
  )
  await wrk(url, paths, keys, 2, connections)
  const results: WrkResult[] = []
  for (let i = 0; i < runs; i++) {
    const r = await wrk(url, paths, keys, seconds, connections)
    if (r.non2xx > 0 || r.errors > 0)
      throw new Error(`${paths[0]}: ${r.non2xx} non-2xx answers and ${r.errors} socket errors`)
    results.push(r)
    onRun(r, i + 1)
  }
  const mid = (pick: (r: WrkResult) => number) => median(results.map(pick))
  return {
    rps: mid((r) => r.rps),
    p50: mid((r) => r.p50),
    p95: mid((r) => r.p95),
    p99: mid((r) => r.p99),
    requests: 0,
    errors: 0,
    non2xx: 0,
    serverErrors: 0,
  }
}

/** `--name value` from the command line as a number. */
export function numberOption(name: string, fallback: number): number {
  return Number(stringOption(name, String(fallback)))
}

/** `--name value` from the command line as it is written. */
export function stringOption(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1]! : fallback
}
