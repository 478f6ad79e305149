/**
 * The review queue (GET /api/review): judged papers an editor has not corrected, whose judgement
 * most needs a human. First those whose lowest confidence is below the threshold (reason
 * low_confidence), least confident first, then a stable audit sample of the others (reason audit),
 * in id order, so an editor also checks judgements the analyzer was sure of.
 *
 * Why the shape of the SQL matters: both parts are read by keyset from partial indexes of
 * drizzle/0025 (papers_review_queue_idx on the lowest confidence and id, papers_review_audit_idx on
 * id), so a page costs the rows it reads however many papers are judged, instead of computing and
 * sorting the lowest confidence of every judged paper per request. The planner uses a partial
 * expression index only when the query repeats its predicate and expression, so REVIEWABLE, AUDIT
 * and LOWEST below must stay textually the index's (test/admin/review.test.ts checks that the plan
 * uses them). The threshold is a setting, so it cannot sit in the index predicate; it bounds the
 * range scanned instead.
 */
import { and, asc, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { papers } from '../../db/schema'
import { paperJudgementColumns } from './judgement'

/** Judged and not corrected by an editor: the predicate of both indexes. */
const REVIEWABLE = sql`${papers.judgedAt} is not null and ${papers.relevance} is not null and ${papers.judgementModel}
  is distinct from 'editor'`
/** The audit sample: about 2% of ids, by a hash of the id alone (geroscope_review_audit, drizzle/0025). */
const AUDIT = sql`geroscope_review_audit(${papers.id})`
/** The lowest of the three confidences; a missing one counts as 0, so it is read first. */
const LOWEST = sql`least(coalesce(${papers.relevanceConfidence}, 0), coalesce(${papers.studyTypeConfidence}, 0),
  coalesce(${papers.topicConfidence}, 0))`

export const REVIEW_REASONS = ['low_confidence', 'audit'] as const
export type ReviewReason = (typeof REVIEW_REASONS)[number]

export type ReviewFilters = { reasons?: ReviewReason[]; topics?: string[]; studyTypes?: string[] }

/** Where the previous page ended: in the low-confidence part (its confidence and id) or in the audit part (its id). */
export type ReviewPosition =
  | { reason: 'low_confidence'; confidence: number; id: string }
  | { reason: 'audit'; id: string }

const queueColumns = {
  id: papers.id,
  title: papers.title,
  journal: papers.journal,
  publishedDate: papers.publishedDate,
  url: papers.url,
  publicationTypes: papers.publicationTypes,
  abstract: papers.abstract,
  ...paperJudgementColumns,
  confidence: sql<number>`${LOWEST}`.mapWith(Number),
}

function filtersOf(f: ReviewFilters): SQL[] {
  const conditions: SQL[] = []
  if (f.topics?.length) conditions.push(sql`${papers.topic} = any(${sql.param(f.topics)}::text[])`)
  if (f.studyTypes?.length) conditions.push(sql`${papers.studyType} = any(${sql.param(f.studyTypes)}::text[])`)
  return conditions
}

/**
 * One part of the queue as a query, not yet run: the low-confidence items or the audit sample,
 * after `after` when it lies in that part (test/admin/review.test.ts explains it to check the indexes).
 */
export function queuePart(
  db: Db,
  part: ReviewReason,
  threshold: number,
  filters: ReviewFilters,
  after: ReviewPosition | null,
  limit: number,
) {
  if (part === 'low_confidence') {
    const where = [sql`${LOWEST} < ${threshold}::float8`, ...filtersOf(filters)]
    if (after?.reason === 'low_confidence')
      where.push(sql`(${LOWEST}, ${papers.id}) > (${after.confidence}::float8, ${after.id})`)
    return db
      .select(queueColumns)
      .from(papers)
      .where(and(REVIEWABLE, ...where))
      .orderBy(sql`${LOWEST}`, asc(papers.id))
      .limit(limit)
  }
  const where = [AUDIT, sql`${LOWEST} >= ${threshold}::float8`, ...filtersOf(filters)]
  if (after?.reason === 'audit') where.push(sql`${papers.id} > ${after.id}`)
  return db
    .select(queueColumns)
    .from(papers)
    .where(and(REVIEWABLE, ...where))
    .orderBy(asc(papers.id))
    .limit(limit)
}

export type ReviewRow = Awaited<ReturnType<typeof queuePart>>[number] & { reason: ReviewReason }

/** Up to `limit` queue items after `after` (null: from the start), in queue order. */
export async function reviewQueue(
  db: Db,
  threshold: number,
  filters: ReviewFilters,
  after: ReviewPosition | null,
  limit: number,
): Promise<ReviewRow[]> {
  const wanted = new Set(filters.reasons?.length ? filters.reasons : REVIEW_REASONS)
  const rows: ReviewRow[] = []
  if (wanted.has('low_confidence') && after?.reason !== 'audit') {
    const low = await queuePart(db, 'low_confidence', threshold, filters, after, limit)
    rows.push(...low.map((r) => ({ ...r, reason: 'low_confidence' as const })))
  }
  if (wanted.has('audit') && rows.length < limit) {
    const audit = await queuePart(db, 'audit', threshold, filters, after, limit - rows.length)
    rows.push(...audit.map((r) => ({ ...r, reason: 'audit' as const })))
  }
  return rows
}

/** How many papers each part of the queue holds: below the threshold (low_confidence), and the audit sample. */
export async function reviewQueueSize(db: Db, threshold: number): Promise<Record<ReviewReason, number>> {
  const [low, audit] = await Promise.all([
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(papers)
      .where(and(REVIEWABLE, sql`${LOWEST} < ${threshold}::float8`)),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(papers)
      .where(and(REVIEWABLE, AUDIT, sql`${LOWEST} >= ${threshold}::float8`)),
  ])
  return { low_confidence: Number(low[0].n), audit: Number(audit[0].n) }
}
