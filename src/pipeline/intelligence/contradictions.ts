/**
 * Reading the stored contradictions (computed by refresh.ts): groups in score order with filters,
 * the best pairs of each group that match the filters, and the claims of those pairs with their
 * papers. Groups page by (score, id), both descending, so one row comparison continues a walk.
 */
import { and, desc, eq, gte, inArray, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { executeRows } from '../../db/client'
import { claims, contradictionGroups, papers } from '../../db/schema'
import { claimColumns, objectEntity, subjectEntity, type ClaimPaperRow } from '../../resources/claims/queries'
import type { ClaimRow } from '../../resources/claims/claim-row'

export type ContradictionFilters = {
  topics?: string[]
  entity?: string // 'type:key'
  organismKey?: string
  minScore?: number
  since?: string // YYYY-MM-DD: only groups (and pairs) with a paper indexed on or after it
}

export type GroupRow = typeof contradictionGroups.$inferSelect
export type Position = { score: number; id: string }

function groupConditions(f: ContradictionFilters): SQL[] {
  const g = contradictionGroups
  const conditions: SQL[] = []
  if (f.topics?.length) conditions.push(sql`${g.topics} && ${sql.param(f.topics)}::text[]`)
  if (f.entity) conditions.push(sql`${g.entityKeys} @> array[${f.entity}]::text[]`)
  if (f.organismKey) conditions.push(sql`${g.organismKeys} @> array[${f.organismKey}]::text[]`)
  if (f.minScore !== undefined) conditions.push(gte(g.score, f.minScore))
  if (f.since) conditions.push(gte(g.latestDate, f.since))
  return conditions
}

/** Up to limit + 1 groups after `after`, best first. */
export async function listGroups(
  db: Db,
  f: ContradictionFilters,
  limit: number,
  after: Position | null,
): Promise<GroupRow[]> {
  const g = contradictionGroups
  const conditions = groupConditions(f)
  if (after) conditions.push(sql`(${g.score}, ${g.id}) < (${after.score}::float8, ${after.id}::text)`)
  return db
    .select()
    .from(g)
    .where(and(...conditions))
    .orderBy(desc(g.score), desc(g.id))
    .limit(limit + 1)
}

export async function getGroup(db: Db, id: string): Promise<GroupRow | null> {
  const [row] = await db.select().from(contradictionGroups).where(eq(contradictionGroups.id, id))
  return row ?? null
}

export type PairRow = {
  group_id: string
  score: number
  organism_key: string
  organism: string
  conditions: Record<string, string>
  increase_claim_id: number
  decrease_claim_id: number
  increase_weight: number
  decrease_weight: number
}

/** The best `perGroup` pairs of each group that match the filters (organism, topic, since). */
export async function pairsFor(
  db: Db,
  groupIds: string[],
  f: ContradictionFilters,
  perGroup: number,
): Promise<Map<string, PairRow[]>> {
  const out = new Map<string, PairRow[]>(groupIds.map((id) => [id, []]))
  if (groupIds.length === 0) return out
  const filters: SQL[] = [sql`p.group_id = g.id`]
  if (f.organismKey) filters.push(sql`p.organism_key = ${f.organismKey}`)
  if (f.topics?.length) filters.push(sql`p.topics && ${sql.param(f.topics)}::text[]`)
  if (f.since) filters.push(sql`p.latest_date >= ${f.since}::date`)
  const rows = await executeRows<PairRow>(
    db,
    sql`
    select p.group_id, p.score, p.organism_key, p.organism, p.conditions, p.increase_claim_id, p.decrease_claim_id,
      p.increase_weight, p.decrease_weight
    from unnest(${sql.param(groupIds)}::text[]) as g(id)
    cross join lateral (
      select * from contradiction_pairs p where ${sql.join(filters, sql` and `)}
      order by p.score desc, p.increase_claim_id, p.decrease_claim_id limit ${perGroup}
    ) p`,
  )
  for (const row of rows) out.get(row.group_id)!.push({ ...row, score: Number(row.score) })
  return out
}

export type PairPaperRow = ClaimPaperRow & { studyType: string | null; topic: string | null; indexedDate: string }
export type PairClaimRow = ClaimRow & { paper: PairPaperRow }

/** Claims by id, each with its entities and its paper (and the licence its evidence follows). */
export async function claimsById(db: Db, ids: number[]): Promise<Map<number, PairClaimRow>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .select({
      ...claimColumns,
      paper: {
        id: papers.id,
        title: papers.title,
        doi: papers.doi,
        journal: papers.journal,
        publishedDate: papers.publishedDate,
        preprint: papers.preprint,
        url: papers.url,
        abstractLicense: papers.abstractLicense,
        studyType: papers.studyType,
        topic: papers.topic,
        indexedDate: papers.indexedDate,
      },
    })
    .from(claims)
    .innerJoin(papers, eq(papers.id, claims.paperId))
    .leftJoin(subjectEntity, eq(subjectEntity.id, claims.subjectEntityId))
    .leftJoin(objectEntity, eq(objectEntity.id, claims.objectEntityId))
    .where(inArray(claims.id, [...new Set(ids)]))
  return new Map(rows.map((r) => [r.claim.id, r as PairClaimRow]))
}
