/**
 * The service's entry point (`npm start`): validate the configuration, open and migrate the
 * database, make the first operator and, on an empty embedded database, load the demo corpus,
 * then serve the app.
 */
import { buildApp } from './app'
import { ConfigError, parseConfig, resolveAppSecret } from './config'
import { openConfiguredDatabase } from './db/open'
import { ensureOperator } from './modules/accounts/operator'
import { ensureDefaultPrompts } from './prompts/service'
import { seedDemo } from './seed/demo'
import { MemoryRateLimitStore } from './rate-limit/memory-store'
import { PostgresRateLimitStore } from './rate-limit/postgres-store'
import { CorpusSnapshot } from './modules/v1/stats/snapshot'
import { KeyUsageRecorder } from './modules/keys/last-used'
import { startWorkers } from './jobs/workers'
import { serve } from './platform/serve'
import { PARSER_HEAD_BYTES } from './http/request-limits'

const started = performance.now()
let parsed
try {
  parsed = resolveAppSecret(parseConfig())
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  console.error(error.message)
  process.exit(1)
}
const config = parsed

const database = await openConfiguredDatabase(config).catch((error: Error) => {
  console.error(`Cannot open the database: ${error.message}`)
  process.exit(1)
})
await ensureDefaultPrompts(database.db)
const operator = await ensureOperator(database.db, config)
const demo = config.demoData ? await seedDemo(database) : null

const limits = config.rateLimitStore === 'postgres'
  ? await PostgresRateLimitStore.open(database)
  : await MemoryRateLimitStore.open(database)
const snapshot = new CorpusSnapshot(database.db)
const keyUsage = new KeyUsageRecorder(database)
const app = buildApp({ config, database, limits, snapshot, keyUsage })
const stopSnapshots = snapshot.startRefresh()
// WORKERS=off leaves the API alone: no harvesting, scraping or analysis in this process.
const jobs = config.workers ? startWorkers(database, config) : []
const server = serve(app.fetch, config.port, { maxHeadBytes: PARSER_HEAD_BYTES })
const seconds = ((performance.now() - started) / 1000).toFixed(1)
const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`

console.log(`Geroscope is listening on ${config.publicBaseUrl} (port ${server.port}, ${where}); ready in ${seconds} s`)
console.log(`API reference: ${config.publicBaseUrl}/api/v1/docs (admin interface: ${config.publicBaseUrl}/api/docs); site: ${config.publicBaseUrl}/`)
if (operator) {
  console.log(`Operator login: ${operator.username} / ${operator.password}${operator.generated ? '  (generated: set ADMIN_PASSWORD to choose one)' : ''}`)
}
console.log(`Operator console: ${config.publicBaseUrl}/console`)
if (demo?.loaded) {
  const c = demo.counts
  console.log(`Loaded the synthetic demo corpus: ${c.papers} papers, ${c.stories} stories, ${c.claims} claims`)
  console.log(`Demo API key (member tier): ${demo.apiKey}`)
  console.log(`Try: curl -H "Authorization: Bearer ${demo.apiKey}" ${config.publicBaseUrl}/api/v1/papers`)
}

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  console.log(`${signal}: stopping`)
  stopSnapshots()
  for (const job of jobs) job.stop()
  await server.stop()
  await keyUsage.close()
  await limits.close()
  await database.close()
  process.exit(0)
}
process.on('SIGINT', () => void shutdown('SIGINT'))
process.on('SIGTERM', () => void shutdown('SIGTERM'))
