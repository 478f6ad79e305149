/**
 * In-process profile of one Data API path: builds the app on PostgreSQL, then keeps `--concurrency`
 * requests in flight through app.handle for `--seconds`. Run under `bun --cpu-prof` to see where a
 * request's time goes without wrk or sockets in the picture:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/geroscope_bench_seed \
 *     bun --cpu-prof --cpu-prof-dir /tmp/prof scripts/profile-api.ts --path /api/v1/papers [--seconds 10] [--concurrency 16]
 * A path holding `{id}` is asked with paper ids drawn from the whole corpus (--ids 5000 of them), so
 * the response cache (RESPONSE_CACHE_MB=0 turns it off) and PostgreSQL's buffers see a real mix.
 * It prints the process's CPU time per request (user + system, from process.cpuUsage, the requests
 * only): the service's own cost without wrk and sockets in the picture.
 */
import { sql } from 'drizzle-orm'
import { buildApp } from '../src/app'
import { parseConfig, resolveAppSecret } from '../src/config'
import { openDatabase } from '../src/db/client'
import { MemoryRateLimitStore } from '../src/rate-limit/memory-store'
import { benchKeys } from './bench/keys'
import { numberOption } from './bench/wrk'

const at = process.argv.indexOf('--path')
const paths = (at > 0 ? process.argv[at + 1] : '/api/v1/papers').split(',')
const seconds = numberOption('seconds', 10)
const concurrency = numberOption('concurrency', 16)
const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) throw new Error('set DATABASE_URL')

const config = resolveAppSecret(
  parseConfig({ ...process.env, WORKERS: 'off', DEMO_DATA: 'off', APP_SECRET: 'b'.repeat(40) }),
)
const database = await openDatabase({ kind: 'postgres', url: databaseUrl, max: 10 })
const keys = await benchKeys(database.db, 1000)
const limits = await MemoryRateLimitStore.open(database, new Date())
const app = buildApp({ config, database, limits })
const idCount = numberOption('ids', 5000)
const ids = paths.some((p) => p.includes('{id}'))
  ? (await database.rows<{ id: string }>(sql`select id from papers tablesample system (1) limit ${idCount}`)).map(
      (r) => r.id,
    )
  : []
const pathAt = (i: number) => {
  const path = paths[i % paths.length]
  return path.includes('{id}') ? path.replace('{id}', ids[Math.floor(i / paths.length) % ids.length]) : path
}

let done = 0
let next = 0
const cpuBefore = process.cpuUsage()
const deadline = performance.now() + seconds * 1000
async function worker() {
  while (performance.now() < deadline) {
    const i = next++
    const response = await app.handle(
      new Request(`http://localhost${pathAt(i)}`, { headers: { authorization: `Bearer ${keys[i % keys.length]}` } }),
    )
    if (response.status !== 200) throw new Error(`${response.status}: ${await response.text()}`)
    await response.arrayBuffer()
    done++
  }
}
await Promise.all(Array.from({ length: concurrency }, worker))
const cpu = process.cpuUsage(cpuBefore)
console.log(
  `${done} requests in ${seconds} s: ${Math.round(done / seconds)} req/s, CPU ${((cpu.user + cpu.system) / 1000 / done).toFixed(3)} ms/request`,
)
await database.close()
process.exit(0)
