/**
 * Queries that cannot match anything. websearch_to_tsquery never fails on bad syntax (unbalanced
 * quotes, a lone "-", stray OR), but a query of stop words or punctuation alone parses to nothing
 * and would silently match nothing: such a query gets a 400 that says why. Checked only when a
 * search came back empty, so good queries pay nothing for it.
 */
import { sql } from 'drizzle-orm'
import { executeRows, type Db } from '../db/client'
import { invalidParameter } from '../http/errors'
import { tsquery } from './postgres'

export async function assertSearchable(db: Db, q: string): Promise<void> {
  const [row] = await executeRows<{ n: number }>(db, sql`select numnode(${tsquery(q)}) as n`)
  if (Number(row.n) === 0) throw invalidParameter('q has no searchable words (only stop words or punctuation)')
}
