/** Opens the database the configuration names and brings its schema up to date. */
import { join } from 'node:path'
import type { Config } from '../config'
import { openDatabase, type Database } from './client'
import { lockEmbeddedDatabase } from './embedded-lock'
import { migrateDatabase } from './migrate'

export async function openConfiguredDatabase(config: Config, poolSize = 10): Promise<Database> {
  if (config.databaseUrl) {
    const database = await openDatabase({ kind: 'postgres', url: config.databaseUrl, max: poolSize })
    await migrateDatabase(database, config.databaseUrl)
    return database
  }
  const dir = join(config.dataDir, 'pglite')
  const unlock = lockEmbeddedDatabase(config.dataDir)
  try {
    const database = await openDatabase({ kind: 'pglite', dataDir: dir })
    await migrateDatabase(database)
    return { ...database, close: async () => { await database.close(); unlock() } }
  } catch (error) {
    unlock()
    throw error
  }
}
