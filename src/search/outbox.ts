/**
 * The search outbox: every change to a paper that search must see (new paper, new text, new
 * judgement) leaves its id here, in the same transaction as the change. The Meilisearch backend
 * drains it; the PostgreSQL backend needs nothing (its tsvector is a generated column), so rows
 * wait harmlessly until a Meilisearch index exists to take them.
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client'

/** Queues paper ids for the search index. Call it inside the transaction that changed them. */
export async function enqueueSearchSync(db: Db, paperIds: readonly string[]): Promise<void> {
  if (paperIds.length === 0) return
  await db.execute(sql`insert into search_outbox (paper_id) select unnest(${sql.param([...paperIds])}::text[])`)
}
