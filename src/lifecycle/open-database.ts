/**
 * Opens the database the configuration names and brings its schema and lexicon up to date. It stands with the start-up
 * code, not in src/db/, because bringing the lexicon up to date (src/lexicon/apply.ts) sits above the database layer.
 */
import { join } from 'node:path'
import type { Config } from '../config'
import { openDatabase, type Database } from '../db/client'
import { lockEmbeddedDatabase } from '../db/embedded-lock'
import { migrateDatabase } from '../db/migrate'
import { applyLexicon } from '../lexicon/apply'
import { resolveEntityName } from '../lexicon/matcher'
import { isDatabaseUnavailable } from '../db/database-errors'
import { checkDocumentsVersion } from '../documents/papers'
import { checkClaimDocumentsVersion } from '../documents/claims'
import { log } from '../log'

/** A step of opening the database, reported once done with the time since the previous one (start-up prints them). */
export type OpenStep = 'open' | 'schema' | 'lexicon'
export type OnOpenStep = (step: OpenStep, elapsedMs: number) => void

/**
 * The schema, then the entities' keys and aliases, brought up to date (the lexicon part runs once per lexicon version).
 */
async function bringUpToDate(database: Database, url: string | undefined, onStep: OnOpenStep) {
  const started = performance.now()
  await migrateDatabase(database, url)
  const migrated = performance.now()
  onStep('schema', migrated - started)
  await applyLexicon(database, resolveEntityName)
  onStep('lexicon', performance.now() - migrated)
  // Documents built by another version of their serializer go stale here, for the refresher to rewrite.
  const stale = (await checkDocumentsVersion(database.db)) + (await checkClaimDocumentsVersion(database.db))
  if (stale > 0)
    log.info({ stale }, `${stale} stored documents were built by another version and are rebuilt in the background`)
}

export async function openConfiguredDatabase(
  config: Config,
  poolSize = config.databasePoolSize,
  onStep: OnOpenStep = () => {},
): Promise<Database> {
  const started = performance.now()
  if (config.databaseUrl) {
    const database = await openDatabase({
      kind: 'postgres',
      url: config.databaseUrl,
      max: poolSize,
      replicas: config.databaseReplicas,
      nativeClient: config.databaseNativeClient,
    })
    onStep('open', performance.now() - started)
    try {
      await bringUpToDate(database, config.databaseUrl, onStep)
    } catch (error) {
      await database.close().catch(() => {})
      throw error
    }
    return database
  }
  const dir = join(config.dataDir, 'pglite')
  const unlock = lockEmbeddedDatabase(config.dataDir)
  try {
    const database = await openDatabase({ kind: 'pglite', dataDir: dir })
    onStep('open', performance.now() - started) // on a first start, PGlite creates its cluster here: the longest wait
    await bringUpToDate(database, undefined, onStep)
    return {
      ...database,
      close: async () => {
        await database.close()
        unlock()
      },
    }
  } catch (error) {
    unlock()
    throw error
  }
}

/**
 * Opens the database, waiting for a PostgreSQL that cannot serve yet: in a compose file or an
 * orchestrator the service often starts before its database, or beside several instances that
 * crowd the server at once. Only "unavailable" failures are retried (refused, reset, starting
 * up, out of connection slots); anything else (a wrong password, a failed migration) stops at once.
 */
export async function openConfiguredDatabaseWhenReady(
  config: Config,
  options: { waitMs?: number; onRetry?: (error: Error, attempt: number) => void; onStep?: OnOpenStep } = {},
): Promise<Database> {
  const deadline = Date.now() + (options.waitMs ?? 60_000)
  for (let attempt = 1; ; attempt++) {
    try {
      return await openConfiguredDatabase(config, config.databasePoolSize, options.onStep)
    } catch (error) {
      if (!config.databaseUrl || !isDatabaseUnavailable(error) || Date.now() >= deadline) throw error
      options.onRetry?.(error as Error, attempt)
      await new Promise((resolve) => setTimeout(resolve, Math.min(250 * 2 ** (attempt - 1), 5000)))
    }
  }
}
