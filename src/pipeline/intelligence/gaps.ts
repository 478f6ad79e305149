/**
 * Reading the stored knowledge gaps (computed by compute-gaps.ts) in score order with filters, and
 * the plain-language explanation of each, written from its kind, what it is about and its counts.
 */
import { and, desc, eq, gte, inArray, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { knowledgeGaps, papers } from '../../db/schema'
import type { Position } from './contradictions'

export const GAP_KINDS = [
  'no_human_trial',
  'single_paper',
  'single_organism',
  'declining_attention',
  'disputed_finding',
] as const
export type GapKind = (typeof GAP_KINDS)[number]

export type GapFilters = { kinds?: string[]; topics?: string[]; entity?: string; minScore?: number }
export type GapRow = typeof knowledgeGaps.$inferSelect

export async function listGaps(db: Db, f: GapFilters, limit: number, after: Position | null): Promise<GapRow[]> {
  const g = knowledgeGaps
  const conditions: SQL[] = []
  if (f.kinds?.length) conditions.push(inArray(g.kind, f.kinds))
  if (f.topics?.length) conditions.push(sql`${g.topics} && ${sql.param(f.topics)}::text[]`)
  if (f.entity) conditions.push(sql`${g.entityKeys} @> array[${f.entity}]::text[]`)
  if (f.minScore !== undefined) conditions.push(gte(g.score, f.minScore))
  if (after) conditions.push(sql`(${g.score}, ${g.id}) < (${after.score}::float8, ${after.id}::text)`)
  return db
    .select()
    .from(g)
    .where(and(...conditions))
    .orderBy(desc(g.score), desc(g.id))
    .limit(limit + 1)
}

export async function getGap(db: Db, id: string): Promise<GapRow | null> {
  const [row] = await db.select().from(knowledgeGaps).where(eq(knowledgeGaps.id, id))
  return row ?? null
}

/**
 * The declining-attention gap of a topic ('topic:<slug>') or hallmark ('hallmark:<key>'), if the last computation found
 * one.
 */
export async function decliningAttentionGap(db: Db, subjectKey: string): Promise<GapRow | null> {
  const [row] = await db
    .select()
    .from(knowledgeGaps)
    .where(and(eq(knowledgeGaps.kind, 'declining_attention'), eq(knowledgeGaps.subjectKey, subjectKey)))
    .limit(1)
  return row ?? null
}

export type GapPaperRow = {
  id: string
  title: string
  journal: string
  publishedDate: string | null
  indexedDate: string
  url: string
  studyType: string | null
}

export async function gapPapers(db: Db, ids: string[]): Promise<Map<string, GapPaperRow>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .select({
      id: papers.id,
      title: papers.title,
      journal: papers.journal,
      publishedDate: papers.publishedDate,
      indexedDate: papers.indexedDate,
      url: papers.url,
      studyType: papers.studyType,
    })
    .from(papers)
    .where(inArray(papers.id, [...new Set(ids)]))
  return new Map(rows.map((r) => [r.id, r]))
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`
/** "1 paper reports", "3 papers report". */
const agree = (n: number, noun: string, verb: string) => `${plural(n, noun)} ${n === 1 ? `${verb}s` : verb}`
const list = (items: string[]) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`

/** A short title and a plain-language explanation of a gap. */
export function explainGap(gap: GapRow): { title: string; explanation: string } {
  const c = gap.counts
  const d = gap.details as Record<string, unknown>
  const organisms = Array.isArray(d.organisms) ? (d.organisms as string[]) : []
  const subject = gap.subjectLabel ?? ''
  const object = gap.objectLabel ?? ''
  const way = d.direction === 'decrease' ? 'lowers' : 'raises'
  switch (gap.kind as GapKind) {
    case 'no_human_trial': {
      const inPeople = c.human_observational_papers ?? 0
      const observational = inPeople
        ? ` (${plural(inPeople, 'observational study', 'observational studies')} in people mention it)`
        : ''
      return {
        title: `${subject}: lifespan evidence in animals, no human trial`,
        explanation:
          `${agree(c.animal_papers ?? 0, 'paper', 'report')} that ${subject} extends lifespan or healthspan ` +
          `in ${list(organisms)}, ` +
          `but no human trial in the corpus tests it${observational}.`,
      }
    }
    case 'single_paper':
      return {
        title: `${subject} ${way} ${object}: one paper`,
        explanation:
          `Only one paper reports ` +
          `that ${subject} ${way} ${object}${d.organism ? ` (in ${d.organism})` : ''}; no other paper in the ` +
          `corpus replicates or disputes it.`,
      }
    case 'single_organism':
      return {
        title: `${subject} ${way} ${object}: only in ${d.organism}`,
        explanation:
          `${agree(c.papers ?? 0, 'paper', 'report')} that ${subject} ${way} ${object}, all ` +
          `in ${d.organism}; no study in another organism or in people has tested it.`,
      }
    case 'declining_attention':
      return {
        title: `${subject}: little recent work`,
        explanation:
          `${plural(c.recent_papers ?? 0, 'paper')} on ${subject} in the last ${c.recent_days} days, where its ` +
          `earlier rate ` +
          `(${plural(c.history_papers ?? 0, 'paper')} over the previous ${c.history_days} days) predicts ` +
          `about ${c.expected_recent}.`,
      }
    case 'disputed_finding':
      return {
        title: `${subject} and ${object}: papers disagree`,
        explanation:
          `${agree(c.papers_increase ?? 0, 'paper', 'find')} that ${subject} raises ${object} ` +
          `and ${plural(c.papers_decrease ?? 0, 'paper')} that it lowers it, ` +
          `under comparable conditions in ${list(organisms)}. See contradiction ${gap.contradictionId}.`,
      }
    default:
      return { title: gap.kind, explanation: '' }
  }
}
