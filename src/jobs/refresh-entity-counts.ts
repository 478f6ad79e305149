/**
 * /entities serves counts and order from entities.paper_count, refreshed every minute instead of
 * counted per request. Only rows whose count changed are written.
 */
import { sql } from 'drizzle-orm'
import { executeRows, type Db } from '../db/client'

export async function refreshEntityCounts(db: Db): Promise<{ updated: number }> {
  const rows = await executeRows<{ id: number }>(
    db,
    sql`
    with counts as (
      select entity_id, count(distinct paper_id)::int as n from paper_entities group by entity_id
    )
    update entities e set paper_count = coalesce(c.n, 0)
    from entities e2 left join counts c on c.entity_id = e2.id
    where e.id = e2.id and e.paper_count <> coalesce(c.n, 0)
    returning e.id`,
  )
  return { updated: rows.length }
}
