/** A benchmark's own PostgreSQL database: made fresh (dropped first if it exists) and migrated. */
import postgres from 'postgres'
import { openDatabase, type Database } from '../../src/db/client'
import { migrateDatabase } from '../../src/db/migrate'

export type BenchDatabase = { database: Database; url: string; drop: () => Promise<void> }

/** `server`: a PostgreSQL URL without a database name, e.g. postgres://postgres@127.0.0.1:5432. */
export async function freshBenchDatabase(server: string, name: string, max: number): Promise<BenchDatabase> {
  const urlOf = (db: string) => {
    const url = new URL(server)
    url.pathname = `/${db}`
    return url.href
  }
  const admin = async (statement: string) => {
    const sql = postgres(urlOf('postgres'), { max: 1, onnotice: () => {} })
    try {
      await sql.unsafe(statement)
    } finally {
      await sql.end()
    }
  }
  await admin(`drop database if exists ${name} with (force)`)
  await admin(`create database ${name}`)
  const url = urlOf(name)
  const database = await openDatabase({ kind: 'postgres', url, max })
  await migrateDatabase(database, url)
  return { database, url, drop: () => admin(`drop database if exists ${name} with (force)`) }
}
