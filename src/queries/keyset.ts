/**
 * Keyset paging for orders that mix directions, such as (indexed_date desc, id asc). PostgreSQL
 * cannot start an index scan at a mixed-direction row position, so a page after position (d, i)
 * is read in two index range scans: first the rest of the rows tied on d (id > i), then the rows
 * after d. Each is a plain range scan, so page 1,000 costs what page 1 costs.
 */
import type { SQL } from 'drizzle-orm'

export type KeysetFetch<Row> = (where: SQL | undefined, limit: number) => Promise<Row[]>

/** Fetches up to limit + 1 rows (the extra one says whether another page exists). */
export async function keysetPage<Row>(
  fetch: KeysetFetch<Row>,
  limit: number,
  after: { tiedAfter: SQL; beyond: SQL } | null,
): Promise<Row[]> {
  if (!after) return fetch(undefined, limit + 1)
  const tied = await fetch(after.tiedAfter, limit + 1)
  if (tied.length > limit) return tied
  const rest = await fetch(after.beyond, limit + 1 - tied.length)
  return tied.concat(rest)
}
