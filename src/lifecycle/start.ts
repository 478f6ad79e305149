/**
 * Starting and stopping the service, shared by the Bun entry point (src/index.ts) and the Deno one
 * (src/deno.ts): validate the configuration, open and migrate the database (waiting for a
 * PostgreSQL that is still starting), make the first operator and, on an empty embedded database,
 * load the demo corpus, then serve the app. `stop` is the graceful shutdown SIGTERM and SIGINT run.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import process from 'node:process'
import { buildApp } from '../app'
import { ConfigError, parseConfig, resolveAppSecret } from '../config'
import { openConfiguredDatabaseWhenReady } from './open-database'
import { withAccessLog } from '../http/access-log'
import { ClientConnections } from '../http/client-connections'
import { serverFailure } from '../http/error-plugin'
import { PARSER_HEAD_BYTES } from '../http/request-limits'
import { startWorkers } from './workers'
import { startDocumentRefresher } from '../documents/refresher'
import { closeStaleRuns } from '../jobs/run-job'
import { errorMessage, log } from '../log'
import { ensureOperator } from '../accounts/operator'
import type { Lifecycle } from '../modules/app-context'
import { KeyUsageRecorder } from '../accounts/key-last-used'
import { CorpusSnapshot } from '../modules/v1/stats/snapshot'
import { serve } from '../platform/serve'
import { exitProcess, onStopSignal } from '../platform/signals'
import { ensureDefaultPrompts } from '../pipeline/prompts/service'
import { MemoryRateLimitStore } from '../rate-limit/memory-store'
import { PostgresRateLimitStore } from '../rate-limit/postgres-store'
import { countPapers, seedDemo, type DemoResult } from '../seed/demo'
import type { Database } from '../db/client'
import { demoProgressLog } from './demo-progress'
import { resolveClaimSides } from '../pipeline/analysis/resolve-claim-sides'
import { InFlight } from './in-flight'
import { shutDown } from './shutdown'

/** The lines opening the database prints, one per step done (open-database.ts). */
const OPEN_STEPS = {
  open: 'Database open',
  schema: 'Database schema up to date',
  lexicon: 'Lexicon entities up to date',
} as const

export type RunningService = { port: number; stop: (reason: string) => Promise<void> }

export async function startService(env: Record<string, string | undefined> = process.env): Promise<RunningService> {
  const started = performance.now()
  let parsed
  try {
    parsed = resolveAppSecret(parseConfig(env))
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    // One plain line on stderr: the level and format of the log are among what may be wrong.
    process.stderr.write(`${error.message}\n`)
    exitProcess(1)
  }
  const config = parsed
  log.level = config.logLevel

  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`
  // Creating the embedded database and migrating it block the process (PGlite runs in this thread): no line can come
  // while they run, so say beforehand what the wait is.
  const creating = !config.databaseUrl && !existsSync(join(config.dataDir, 'pglite'))
  log.info(
    { database: config.databaseUrl ? 'postgres' : 'pglite' },
    creating
      ? `Creating the embedded database (PGlite in ${config.dataDir}) and applying its migrations: first start only, ` +
          `the longest wait`
      : `Opening the database: ${where}`,
  )
  const database = await openConfiguredDatabaseWhenReady(config, {
    onRetry: (error, attempt) => log.warn({ attempt, error: error.message }, 'the database cannot serve yet; retrying'),
    onStep: (step, ms) =>
      log.info({ step, seconds: Math.round(ms / 100) / 10 }, `${OPEN_STEPS[step]} in ${(ms / 1000).toFixed(1)} s`),
  }).catch((error: Error) => {
    log.fatal({ error: error.message }, `Cannot open the database: ${error.message}`)
    exitProcess(1)
  })
  await ensureDefaultPrompts(database.db)
  const operator = await ensureOperator(database.db, config)
  const demo = config.demoData ? await loadDemo(database) : null
  if (!config.demoData && (await countPapers(database)) === 0) {
    log.info(
      { papers: 0 },
      'The database holds no papers yet. To try the service with the synthetic demo corpus, start once with ' +
        'DEMO_DATA=on (it loads only into an empty database); real papers arrive through the hourly Europe PMC ' +
        'harvest (WORKERS=on).',
    )
  }
  const staleRuns = await closeStaleRuns(database)
  if (staleRuns > 0)
    log.warn({ closed: staleRuns }, `closed ${staleRuns} job run(s) left "running" by a process that died`)

  const limits =
    config.rateLimitStore === 'postgres'
      ? await PostgresRateLimitStore.open(database)
      : await MemoryRateLimitStore.open(database)
  const snapshot = new CorpusSnapshot(database.db)
  const keyUsage = new KeyUsageRecorder(database)
  const lifecycle: Lifecycle = { draining: false }
  const app = buildApp({ config, database, limits, snapshot, keyUsage, lifecycle })
  const stopSnapshots = snapshot.startRefresh()
  // WORKERS=off leaves the API alone: no harvesting, scraping or analysis in this process.
  const jobs = config.workers ? startWorkers(database, config) : []
  // Stored documents (src/documents/) rebuilt a second after their rows change, by one process at a time.
  const documents = startDocumentRefresher(database)
  const inFlight = new InFlight()
  const perClient = new ClientConnections(config)
  const handler = inFlight.track(withAccessLog(perClient.track(app.fetch)))
  const server = serve(handler, config.port, { maxHeadBytes: PARSER_HEAD_BYTES, onError: serverFailure })
  const seconds = ((performance.now() - started) / 1000).toFixed(1)

  log.info(
    { port: server.port, database: database.driver, startupSeconds: Number(seconds) },
    `Geroscope is listening on ${config.publicBaseUrl} (port ${server.port}, ${where}); ready in ${seconds} s`,
  )
  if (operator) {
    log.info(
      { username: operator.username },
      `Operator login: ${operator.username} ` +
        `/ ${operator.password}${operator.generated ? '  (generated: set ADMIN_PASSWORD to choose one)' : ''}`,
    )
  }
  log.info(`Operator console: ${config.publicBaseUrl}/console`)
  log.info(
    `API reference: ${config.publicBaseUrl}/api/v1/docs (admin interface: ${config.publicBaseUrl}/api/docs); ` +
      `site: ${config.publicBaseUrl}/`,
  )
  if (demo?.loaded) {
    const c = demo.counts
    log.info(
      { counts: c },
      `Loaded the synthetic demo corpus: ${c.papers} papers, ${c.stories} stories (${c.heldStories} held ` +
        `back), ${c.claims} claims`,
    )
    log.info(`Demo API key (member tier): ${demo.apiKey}`)
    log.info(`Try: curl -H "Authorization: Bearer ${demo.apiKey}" ${config.publicBaseUrl}/api/v1/papers`)
  }

  let stopping: Promise<void> | null = null
  const stop = (reason: string) =>
    (stopping ??= Promise.all([
      documents.stop(),
      shutDown(reason, {
        timeoutMs: config.shutdownTimeoutMs,
        lifecycle,
        server,
        inFlight,
        jobs,
        stopSnapshots,
        keyUsage,
        limits,
        database,
      }),
    ]).then(() => {}))
  return { port: server.port, stop }
}

/** The demo corpus into an empty database, saying how it goes (demo-progress.ts); nothing on a database with papers. */
async function loadDemo(database: Database): Promise<DemoResult> {
  const progress = demoProgressLog(log)
  const demo = await seedDemo(database, undefined, progress.onProgress)
  if (!demo.loaded) return demo
  // The demo corpus's sides written as lexicon names get their entities now, not at the first analysis run.
  const started = performance.now()
  await resolveClaimSides(database.db)
  progress.step('claim_sides', performance.now() - started)
  progress.finish()
  return demo
}

/** The entry points' whole job: start, and on SIGTERM or SIGINT stop gracefully and exit 0 (1 if stopping failed). */
export async function runService(): Promise<void> {
  const service = await startService()
  onStopSignal((signal) => {
    service.stop(signal).then(
      () => exitProcess(0),
      (error) => {
        log.fatal({ error: errorMessage(error) }, 'shutdown failed')
        exitProcess(1)
      },
    )
  })
}
