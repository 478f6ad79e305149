/** Opens the database the configuration names and brings its schema up to date. */
import { join } from 'node:path'
import type { Config } from '../config'
import { openDatabase, type Database } from './client'
import { lockEmbeddedDatabase } from './embedded-lock'
import { migrateDatabase } from './migrate'
import { applyLexicon } from '../lexicon/apply'
import { lookupTerm } from '../analysis/builtin/matcher'

/** The schema, then the entities' keys and aliases, brought up to date (the lexicon part runs once per lexicon version). */
async function bringUpToDate(database: Database, url?: string) {
  await migrateDatabase(database, url)
  await applyLexicon(database, resolveEntityName)
}

/** The lexicon key a name resolves to within one entity type, if any. */
export function resolveEntityName(type: string, name: string): string | undefined {
  const entry = lookupTerm(name)
  return entry?.type === type ? entry.key : undefined
}

export async function openConfiguredDatabase(config: Config, poolSize = 10): Promise<Database> {
  if (config.databaseUrl) {
    const database = await openDatabase({ kind: 'postgres', url: config.databaseUrl, max: poolSize, replicas: config.databaseReplicas })
    await bringUpToDate(database, config.databaseUrl)
    return database
  }
  const dir = join(config.dataDir, 'pglite')
  const unlock = lockEmbeddedDatabase(config.dataDir)
  try {
    const database = await openDatabase({ kind: 'pglite', dataDir: dir })
    await bringUpToDate(database)
    return { ...database, close: async () => { await database.close(); unlock() } }
  } catch (error) {
    unlock()
    throw error
  }
}
