/**
 * Issue 18's additions, measured in-process (app.handle, no network) against PostgreSQL holding a
 * synthetic corpus, with the response cache off so every request does its database work:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/geroscope_bench_seed bun scripts/bench-api-extras.ts [--rounds 7] [--per-round 20]
 * Load the corpus first with `bun run cli seed synthetic --papers N`. Scenarios are interleaved round by
 * round (so a change in machine load hits them all alike); each prints the median and p95 of its request
 * times and requests per second of one sequential client. The load average is printed before and after.
 */
import { loadavg } from 'node:os'
import { sql } from 'drizzle-orm'
import { buildApp } from '../src/app'
import { parseConfig } from '../src/config'
import { openDatabase } from '../src/db/client'
import { KeyUsageRecorder } from '../src/modules/keys/last-used'
import { MemoryRateLimitStore } from '../src/rate-limit/memory-store'
import { benchKeys } from './bench/keys'
import { numberOption } from './bench/wrk'

const rounds = numberOption('rounds', 7)
const perRound = numberOption('per-round', 20)
const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) throw new Error('set DATABASE_URL to the PostgreSQL database holding the benchmark corpus')

const database = await openDatabase({ kind: 'postgres', url: databaseUrl, max: 4 })
const [{ n }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from papers`)
const sample = await database.rows<{ id: string; doi: string | null }>(sql`select id, doi from papers tablesample system (5) limit 5000`)
const keys = await benchKeys(database.db, 20)
const config = { ...parseConfig({ PUBLIC_BASE_URL: 'https://geroscope.test', RESPONSE_CACHE_MB: '0' }), appSecret: 'bench-secret-that-is-long-enough-0123456789' }
const limits = await MemoryRateLimitStore.open(database, new Date())
const app = buildApp({ config, database, limits, keyUsage: new KeyUsageRecorder(database, { flushEveryMs: 0 }), responseCache: null })

let k = 0
const key = () => keys[k++ % keys.length]
const batchIds = (i: number) => Array.from({ length: 500 }, (_, j) => {
  const row = sample[(i * 500 + j) % sample.length]
  return j % 5 === 0 && row.doi ? `doi:${row.doi}` : row.id
})

type Scenario = { name: string; run: (i: number) => Promise<Response> }
const get = (path: string, headers: Record<string, string> = {}) => app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key()}`, ...headers } }))
const scenarios: Scenario[] = [
  { name: 'batch 500 (POST)', run: (i) => app.handle(new Request('http://localhost/api/v1/papers/batch', {
    method: 'POST', headers: { authorization: `Bearer ${key()}`, 'content-type': 'application/json' }, body: JSON.stringify({ ids: batchIds(i) }),
  })) },
  { name: 'papers full page (limit 100)', run: () => get('/api/v1/papers?limit=100') },
  { name: 'papers fields=id,title (limit 100)', run: () => get('/api/v1/papers?limit=100&fields=id,title') },
  { name: 'papers full page, br', run: () => get('/api/v1/papers?limit=100', { 'accept-encoding': 'br' }) },
  { name: 'papers count=true', run: () => get('/api/v1/papers?count=true') },
  ...['topic', 'study_type', 'preprint', 'indexed_month', 'organism', 'relation'].map((by) => ({ name: `papers group_by=${by}`, run: () => get(`/api/v1/papers?group_by=${by}`) })),
  { name: 'claims group_by=relation', run: () => get('/api/v1/claims?group_by=relation') },
  { name: 'claims count=true', run: () => get('/api/v1/claims?count=true') },
]

const times = new Map<string, number[]>(scenarios.map((s) => [s.name, []]))
const bytes = new Map<string, number>()
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ')
console.log(`corpus: ${n.toLocaleString('en-US')} papers; ${rounds} rounds x ${perRound} requests per scenario; load average before: ${load()}`)
for (let round = 0; round < rounds; round++) {
  for (const s of scenarios) {
    for (let i = 0; i < perRound; i++) {
      const start = performance.now()
      const response = await s.run(round * perRound + i)
      const body = new Uint8Array(await response.arrayBuffer())
      times.get(s.name)!.push(performance.now() - start)
      if (response.status !== 200) throw new Error(`${s.name}: ${response.status} ${new TextDecoder().decode(body).slice(0, 200)}`)
      bytes.set(s.name, body.byteLength)
    }
  }
}
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]
console.log(`load average after: ${load()}`)
console.log('| scenario | median ms | p95 ms | req/s (1 client) | answer bytes |')
console.log('|---|---|---|---|---|')
for (const s of scenarios) {
  const t = times.get(s.name)!
  const median = quantile(t, 0.5)
  console.log(`| ${s.name} | ${median.toFixed(1)} | ${quantile(t, 0.95).toFixed(1)} | ${(1000 / median).toFixed(0)} | ${bytes.get(s.name)!.toLocaleString('en-US')} |`)
}
await limits.close()
await database.close()
process.exit(0)
