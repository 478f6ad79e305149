/**
 * Login latency of the admin interface (issue 13: p95 <= 250 ms, the slow password hash included),
 * measured against the real service on PostgreSQL over HTTP. Three kinds of login are interleaved:
 * right password, wrong password, unknown username; the last two should cost the same (the dummy
 * hash), which the ratio of their medians shows. Each request comes from its own client address
 * (X-Forwarded-For with TRUST_PROXY=1), so the per-address limit of 10 a minute stays out of the way.
 *
 *   bun scripts/bench-admin.ts [--server postgres://postgres@127.0.0.1:5432] [--logins 150] [--concurrency 2]
 */
import { loadavg } from 'node:os'
import { createAccount } from '../src/accounts/accounts'
import { hashPassword, verifyPassword } from '../src/platform/password'
import { freshBenchDatabase } from './bench/database'
import { median, startServer } from './bench/server'

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? fallback : process.argv[at + 1]
}
const server = arg('server', 'postgres://postgres@127.0.0.1:5432')
const logins = Number(arg('logins', '150'))
const concurrency = Number(arg('concurrency', '2'))
const ACCOUNTS = 10
const PASSWORD = 'bench password, long enough'

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

const bench = await freshBenchDatabase(server, 'geroscope_bench_admin', 4)
for (let i = 0; i < ACCOUNTS; i++)
  await createAccount(bench.database.db, { username: `bench-${i}`, password: PASSWORD, role: 'member' })
await bench.database.close()
const service = await startServer(bench.url, 3900 + (process.pid % 50), {
  TRUST_PROXY: '1',
  PUBLIC_BASE_URL: 'http://127.0.0.1',
})

type Kind = 'right password' | 'wrong password' | 'unknown username'
const KINDS: Kind[] = ['right password', 'wrong password', 'unknown username']
const times: Record<Kind, number[]> = { 'right password': [], 'wrong password': [], 'unknown username': [] }
let address = 0
let next = 0

async function login(n: number) {
  const kind = KINDS[n % 3]
  const username = kind === 'unknown username' ? `nobody-${n}` : `bench-${n % ACCOUNTS}`
  const password = kind === 'right password' ? PASSWORD : 'not the password'
  const a = ++address
  const started = performance.now()
  const response = await fetch(`${service.url}/api/auth/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': `10.${(a >> 16) & 255}.${(a >> 8) & 255}.${a & 255}`,
    },
    body: JSON.stringify({ username, password }),
  })
  await response.arrayBuffer()
  const elapsed = performance.now() - started
  const expected = kind === 'right password' ? 200 : 401
  if (response.status !== expected) throw new Error(`${kind}: HTTP ${response.status}, expected ${expected}`)
  times[kind].push(elapsed)
}

try {
  for (let i = 0; i < 6; i++) await login(i) // warm-up: connections, the dummy hash
  for (const kind of KINDS) times[kind] = []
  console.log(`load average before: ${load()}`)
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < logins) await login(next++)
    }),
  )
  const seconds = (performance.now() - started) / 1000
  console.log(`load average after:  ${load()}`)
  console.log(
    `${logins} logins at concurrency ${concurrency} in ${seconds.toFixed(1)} s (${(logins / seconds).toFixed(1)}/s)`,
  )
  const all = KINDS.flatMap((k) => times[k])
  for (const kind of KINDS) {
    const t = times[kind]
    console.log(
      `${kind.padEnd(17)} n=${String(t.length).padStart(3)}  median ${median(t).toFixed(1)} ms  p95 ${percentile(t, 95).toFixed(1)} ms  max ${Math.max(...t).toFixed(1)} ms`,
    )
  }
  console.log(
    `all logins        n=${String(all.length).padStart(3)}  median ${median(all).toFixed(1)} ms  p95 ${percentile(all, 95).toFixed(1)} ms (target 250 ms)`,
  )
  console.log(
    `unknown username / wrong password, medians: ${(median(times['unknown username']) / median(times['wrong password'])).toFixed(2)}`,
  )
  // The slow hash on its own, in this process, right after: how much of a login is the hash.
  const hash = await hashPassword(PASSWORD)
  const verifies: number[] = []
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now()
    await verifyPassword('not the password', hash)
    verifies.push(performance.now() - t0)
  }
  console.log(
    `password verification alone (${hash.split('$')[1]}, ${hash.split('$')[3]}): median ${median(verifies).toFixed(1)} ms; load average ${load()}`,
  )
} finally {
  await service.stop()
  await bench.drop()
}
