/**
 * Counts and facets over /papers with the list's own filters: the WHERE clause is the list's
 * (`paperConditions`), so a count can never disagree with the pages it counts.
 */
import { and, count, countDistinct, desc, eq, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { claims, entities, paperEntities, papers } from '../../../db/schema'
import { paperConditions, type PaperFilters } from '../../../queries/papers'
import { MAX_GROUPS, type FacetAnswer, type GroupBy } from './params'

/** The exact number of papers matching `filters`. */
export async function countPapers(db: Db, filters: PaperFilters): Promise<number> {
  const [row] = await db.select({ n: count() }).from(papers).where(and(...paperConditions(filters)))
  return row.n
}

/** Papers matching `filters`, counted by `by`. */
export async function groupPapers(db: Db, filters: PaperFilters, by: GroupBy) {
  const where = and(...paperConditions(filters))
  let query
  switch (by) {
    case 'topic':
    case 'study_type':
    case 'preprint':
    case 'indexed_month': {
      const key: SQL = by === 'topic' ? sql`${papers.topic}` : by === 'study_type' ? sql`${papers.studyType}`
        : by === 'preprint' ? sql`${papers.preprint}` : sql`to_char(${papers.indexedDate}, 'YYYY-MM')`
      query = db.select({ key, count: count() }).from(papers).where(where).groupBy(key)
      break
    }
    case 'organism': {
      // Each paper once per organism, however many roles the organism plays in it.
      const n = countDistinct(papers.id)
      query = db.select({ key: sql`${entities.name}`, count: n }).from(papers)
        .innerJoin(paperEntities, eq(paperEntities.paperId, papers.id))
        .innerJoin(entities, and(eq(entities.id, paperEntities.entityId), eq(entities.type, 'organism')))
        .where(where).groupBy(entities.name)
      break
    }
    case 'relation': {
      const n = countDistinct(papers.id)
      query = db.select({ key: sql`${claims.relation}`, count: n }).from(papers)
        .innerJoin(claims, eq(claims.paperId, papers.id))
        .where(where).groupBy(claims.relation)
      break
    }
  }
  const rows = await query.orderBy(desc(sql`2`), sql`1 asc nulls last`).limit(MAX_GROUPS)
  return rows.map((r) => ({ key: r.key as string | boolean | null, count: Number(r.count) }))
}

/** What count= and group_by= add to a /papers answer. */
export async function paperFacets(db: Db, filters: PaperFilters, p: { count?: boolean; group_by?: GroupBy }): Promise<FacetAnswer> {
  const [total, groups] = await Promise.all([
    p.count ? countPapers(db, filters) : undefined,
    p.group_by ? groupPapers(db, filters, p.group_by) : undefined,
  ])
  return { ...(total === undefined ? {} : { total }), ...(groups ? { group_by: groups } : {}) }
}
