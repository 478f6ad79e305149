/**
 * One consistent reading of the whole database for an export run: a single REPEATABLE READ, READ
 * ONLY transaction, so every file of a run (and the manifest's counts) describes the same moment,
 * whatever is written meanwhile. postgres.js runs it on one connection of the pool; PGlite has
 * only one connection, so on the embedded database other queries wait while a run reads (an
 * embedded corpus is small: seconds; see README "Bulk export").
 */
import type { PGlite } from '@electric-sql/pglite'
import type { Database } from '../../db/client'
import { numbered } from '../../queries/prepared'

/** Runs SQL text with `$?` placeholders (numbered in order) inside the snapshot. */
export type SnapshotQuery = <Row = Record<string, unknown>>(text: string, parameters: unknown[]) => Promise<Row[]>

const BEGIN = 'isolation level repeatable read read only'

export async function inSnapshot<T>(database: Database, work: (query: SnapshotQuery) => Promise<T>): Promise<T> {
  const texts = new Map<string, string>()
  const fixed = (text: string) => {
    let out = texts.get(text)
    if (out === undefined) texts.set(text, (out = numbered(text)))
    return out
  }
  if (database.pg) {
    return database.pg.begin(BEGIN, async (sql) => {
      // Each batch reads a few thousand rows by an index range: parallel workers only add start-up
      // cost and processes competing for the same cores.
      await sql.unsafe('set local max_parallel_workers_per_gather = 0')
      return work(
        <Row>(text: string, parameters: unknown[]) =>
          sql.unsafe(fixed(text), parameters as never[], { prepare: true }) as unknown as Promise<Row[]>,
      )
    }) as Promise<T>
  }
  const client = (database.db as unknown as { $client: PGlite }).$client
  return client.transaction(async (tx) => {
    await tx.exec(`set transaction ${BEGIN}`)
    return work(async <Row>(text: string, parameters: unknown[]) => (await tx.query<Row>(fixed(text), parameters)).rows)
  })
}
