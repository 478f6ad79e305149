/**
 * Memory under a mixed load: starts the real service on PostgreSQL, puts a varied load on it with wrk, MCP
 * clients and operators, then lets it idle, and samples the server's resident memory every few seconds
 * throughout. Prints the curve, its summary and every 5xx; exits 1 if there was one.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/geroscope_harden_http bun scripts/soak-memory.ts \
 *     [--seconds 120] [--idle 60] [--every 5] [--connections 32] [--cache-mb 64] [--port 3960] \
 *     [--mcp-clients 4] [--batch 20] [--operators 2] [--admin-per-minute 60]
 * Load a corpus first: `bun run cli seed synthetic --papers 200000`. Needs wrk (apt-get install wrk).
 *
 * The mix is wide on purpose, as real clients are: thousands of distinct paper ids, every filter
 * combination of /papers and /stories (lists of every length, so many distinct SQL texts), searches,
 * claim and entity filters, entity pages, deep pages, and the errors a careless client gets (404s,
 * 400s). Beside wrk: MCP clients sending JSON-RPC batches of tool calls, each message one request
 * against its key (scripts/bench/mcp-batches.ts), and operators logged in with a session writing
 * through the admin API: RSS sources added, changed and deleted, prompts edited
 * (scripts/bench/admin-writes.ts). --mcp-clients 0 or --operators 0 leaves either out.
 */
import { sql } from 'drizzle-orm'
import { openDatabase } from '../src/db/client'
import { createAccount } from '../src/accounts/accounts'
import { STUDY_TYPES, TOPICS } from '../src/taxonomy'
import { adminWrites, emptyAdminTally, type AdminTally, type Operator } from './bench/admin-writes'
import { benchKeys } from './bench/keys'
import { emptyMcpTally, mcpBatches, mcpCalls, type LoadLoop, type McpTally } from './bench/mcp-batches'
import { startServer } from './bench/server'
import { checkWrk, numberOption, wrk } from './bench/wrk'

const seconds = numberOption('seconds', 120)
const idle = numberOption('idle', 60)
const every = numberOption('every', 5)
const connections = numberOption('connections', 32)
const cacheMb = numberOption('cache-mb', 64)
const port = numberOption('port', 3960)
const mcpClients = numberOption('mcp-clients', 4)
const batchSize = numberOption('batch', 20)
const operatorCount = numberOption('operators', 2)
const adminPerMinute = numberOption('admin-per-minute', 60)

const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) throw new Error('set DATABASE_URL to the PostgreSQL database holding a corpus')
checkWrk()

const database = await openDatabase({ kind: 'postgres', url: databaseUrl, max: 2 })
const [{ n }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from papers`)
const keys = await benchKeys(database.db, 500)
const ids = (await database.rows<{ id: string }>(sql`select id from papers tablesample system (5) limit 20000`)).map(
  (r) => r.id,
)
const entities = await database.rows<{ type: string; key: string; name: string }>(
  sql`select type, key, name from entities order by paper_count desc limit 300`,
)
const [newest] = await database.rows<{ d: string }>(sql`select (max(indexed_date) - 60)::text as d from papers`)
const operators: Operator[] = []
for (let i = 0; i < operatorCount; i++) {
  const username = `soak-${process.pid}-${Date.now().toString(36)}-${i}`
  const operator = { username, password: `soak-password-${i}-not-for-use` }
  await createAccount(database.db, { ...operator, role: 'admin' })
  operators.push(operator)
}
await database.close()

/** Deterministic variety: the i-th subset of a list, in a rotated order. */
const subset = <T>(list: readonly T[], i: number) => {
  const size = 1 + (i % list.length)
  return Array.from({ length: size }, (_, k) => list[(i * 7 + k) % list.length])
}
const words = entities.map((e) => e.name.split(/\s+/)[0].toLowerCase()).filter((w) => /^[a-z0-9-]{3,}$/.test(w))

function mixedPaths(): string[] {
  const paths: string[] = []
  for (const id of ids) paths.push(`/api/v1/papers/${id}`)
  for (let i = 0; i < 400; i++) {
    const studyTypes = subset(STUDY_TYPES, i).join(',')
    const topics = subset(TOPICS, i * 3).join(',')
    paths.push(
      `/api/v1/papers?topic=${topics}&study_type=${studyTypes}${i % 2 ? `&since=${newest.d}` : ''}${i % 3 ? '&preprint=false' : ''}&limit=${1 + (i % 100)}`,
    )
    paths.push(`/api/v1/stories?topic=${topics}${i % 2 ? `&study_type=${studyTypes}` : ''}&limit=${1 + (i % 50)}`)
    paths.push(`/api/v1/papers?min_relevance=${(i % 31) / 10}&limit=${1 + (i % 100)}`)
  }
  for (let i = 0; i < words.length; i++) {
    const w = words[i]
    const next = words[(i + 1) % words.length]
    paths.push(`/api/v1/search?q=${encodeURIComponent(w)}`)
    paths.push(`/api/v1/search?q=${encodeURIComponent(`${w} ${next}`)}&limit=${1 + (i % 100)}`)
    paths.push(`/api/v1/search?q=${encodeURIComponent(`"${w} ${next}" OR aging -mouse`)}`)
    paths.push(`/api/v1/papers?q=${encodeURIComponent(w)}&limit=${1 + (i % 100)}`)
    paths.push(`/api/v1/claims?subject=${encodeURIComponent(w)}`)
    paths.push(`/api/v1/claims?object=${encodeURIComponent(w)}&relation=increases`)
    paths.push(`/api/v1/entities?q=${encodeURIComponent(w.slice(0, 4))}`)
  }
  for (const e of entities)
    paths.push(`/api/v1/entities/${e.type}/${encodeURIComponent(e.key)}?limit=${1 + ((e.key.length * 7) % 100)}`)
  for (let i = 0; i < 200; i++) {
    paths.push(`/api/v1/papers/MED-${900000000 + i}`) // 404
    paths.push(`/api/v1/papers?limit=${101 + i}`) // 400
  }
  paths.push(
    '/api/v1/papers',
    '/api/v1/claims',
    '/api/v1/stories',
    '/api/v1/entities',
    '/api/v1/stats',
    '/api/v1/topics',
  )
  // Shuffled with a fixed seed, so each run sends the same mix in the same order.
  let seed = 12345
  for (let i = paths.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    const j = seed % (i + 1)
    ;[paths[i], paths[j]] = [paths[j], paths[i]]
  }
  return paths
}

const paths = mixedPaths()
// Operators add sources with local URLs, disabled: nothing is fetched (scripts/bench/admin-writes.ts).
const server = await startServer(databaseUrl, port, { RESPONSE_CACHE_MB: String(cacheMb), SCRAPE_ALLOW_PRIVATE: 'on' })
console.log(
  `corpus: ${n.toLocaleString('en-US')} papers; ${paths.length.toLocaleString('en-US')} distinct paths; ` +
    `${seconds} s of load at ${connections} connections, ${mcpClients} MCP clients (batches of ${batchSize}), ` +
    `${operatorCount} operators (${adminPerMinute} requests a minute each), then ${idle} s idle; ` +
    `RESPONSE_CACHE_MB=${cacheMb}; ` +
    `load average ${(await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')}`,
)

let mcp: LoadLoop<McpTally> = { tally: emptyMcpTally(), stop: async () => {} }
let admin: LoadLoop<AdminTally> = { tally: emptyAdminTally(), stop: async () => {} }

type Sample = { t: number; phase: 'start' | 'load' | 'idle'; rss: number; mcpMessages: number; adminRequests: number }
const samples: Sample[] = []
const started = performance.now()
let phase: Sample['phase'] = 'start'
const sample = () =>
  samples.push({
    t: (performance.now() - started) / 1000,
    phase,
    rss: server.rssMb(),
    mcpMessages: mcp.tally.messages,
    adminRequests: admin.tally.requests,
  })
sample()
const timer = setInterval(sample, every * 1000)
let wrkServerErrors = 0
try {
  phase = 'load'
  if (mcpClients > 0) mcp = mcpBatches(server.url, keys, mcpCalls(ids, words, entities), mcpClients, batchSize)
  if (operators.length > 0) admin = await adminWrites(server.url, operators, adminPerMinute)
  const result = await wrk(server.url, paths, keys, seconds, connections)
  await Promise.all([mcp.stop(), admin.stop()])
  wrkServerErrors = result.serverErrors
  console.log(
    `wrk: ${result.requests} requests, ${Math.round(result.rps)} req/s, ${result.non2xx} non-2xx ` +
      `(404s and 400s are in the mix), ${result.serverErrors} 5xx, ${result.errors} socket errors`,
  )
  const m = mcp.tally
  console.log(
    `MCP: ${m.batches} batches of ${batchSize} (HTTP ${JSON.stringify(m.httpStatuses)}), ` +
      `${m.messages} messages: ${m.answered} answered, ${m.refused} refused (429 past the allowance or 413 past the ` +
      `answer cap), ${m.serverErrors} 5xx`,
  )
  const a = admin.tally
  console.log(
    `admin: ${a.requests} requests by ${operators.length} operators (${a.logins} logins), ` +
      `by status ${JSON.stringify(a.byStatus)}; ` +
      `${a.serverErrors} 5xx, ${a.unexpected} other unexpected answers`,
  )
  for (const line of [...m.samples, ...a.samples]) console.log(`  sample: ${line}`)
  phase = 'idle'
  await Bun.sleep(idle * 1000)
  sample()
} finally {
  clearInterval(timer)
  await Promise.all([mcp.stop(), admin.stop()]).catch(() => {})
  await server.stop()
}

const bar = (mb: number) => '#'.repeat(Math.round(mb / 10))
console.log('\n   t s  phase  RSS MB  MCP msgs  admin reqs')
for (const s of samples) {
  console.log(
    `${s.t.toFixed(0).padStart(6)}  ${s.phase.padEnd(5)} ${s.rss.toFixed(0).padStart(6)}  ` +
      `${String(s.mcpMessages).padStart(8)}  ${String(s.adminRequests).padStart(10)}  ${bar(s.rss)}`,
  )
}
const of = (p: Sample['phase']) => samples.filter((s) => s.phase === p).map((s) => s.rss)
const load = of('load')
const idleRss = of('idle')
const half = load.slice(Math.floor(load.length / 2))
console.log(
  `\nRSS MB: start ${samples[0].rss.toFixed(0)}, peak ${Math.max(...samples.map((s) => s.rss)).toFixed(0)}, ` +
    `second half of the load ${Math.min(...half).toFixed(0)}-${Math.max(...half).toFixed(0)}, end of idle ${idleRss.at(-1)?.toFixed(0)}`,
)
const serverErrors = wrkServerErrors + mcp.tally.serverErrors + admin.tally.serverErrors
console.log(
  serverErrors === 0
    ? 'no 5xx'
    : `${serverErrors} 5xx (wrk ${wrkServerErrors}, MCP ${mcp.tally.serverErrors}, admin ${admin.tally.serverErrors})`,
)
if (serverErrors > 0) process.exitCode = 1
