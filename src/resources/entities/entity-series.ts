/**
 * An entity's numbers over time and over its claims, for the charts of its site page: its papers by
 * year of publication, and its claims (as subject or object, each once) by organism and direction.
 */
import { countDistinct, eq, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { claims, paperEntities, papers } from '../../db/schema'

/** Papers involving the entity by year of publication, oldest first, and how many have no publication date. */
export async function entityPapersByYear(
  db: Db,
  entityId: number,
): Promise<{ years: { year: number; papers: number }[]; undated: number }> {
  const year = sql<number | null>`extract(year from ${papers.publishedDate})::int`
  const rows = await db
    .select({ year, papers: countDistinct(papers.id) })
    .from(paperEntities)
    .innerJoin(papers, eq(papers.id, paperEntities.paperId))
    .where(eq(paperEntities.entityId, entityId))
    .groupBy(year)
    .orderBy(year)
  return {
    years: rows.flatMap((r) => (r.year === null ? [] : [{ year: Number(r.year), papers: Number(r.papers) }])),
    undated: Number(rows.find((r) => r.year === null)?.papers ?? 0),
  }
}

/** The entity's claims by organism and direction (null: not stated), most claims first. */
export async function entityClaimsByDirection(
  db: Db,
  entityId: number,
): Promise<{ organism: string | null; direction: string | null; claims: number }[]> {
  const n = countDistinct(claims.id)
  const rows = await db
    .select({ organism: claims.organism, direction: claims.direction, claims: n })
    .from(claims)
    .where(or(eq(claims.subjectEntityId, entityId), eq(claims.objectEntityId, entityId)))
    .groupBy(claims.organism, claims.direction)
  return rows.map((r) => ({ ...r, claims: Number(r.claims) })).sort((a, b) => b.claims - a.claims)
}
