/**
 * Reading papers, for every interface (/api/v1, search, the site, the admin views): the filtered,
 * keyset-paged list and the full record of one paper.
 */
import { and, asc, desc, eq, gt, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client'
import { anyOf } from './any-of'
import { claims, entities, paperEntities, papers, stories, upvotes } from '../db/schema'
import { selectClaims } from './claims'
import { keysetPage } from './keyset'
import { matchesQuery } from '../search/tsquery'
import { OPEN_LICENSES } from '../taxonomy'

/** A paper as the interfaces read it: every column but the analysis-only and search ones. */
export type PaperRow = Omit<typeof papers.$inferSelect, 'meshHeadings' | 'keywords' | 'chemicals' | 'createdAt' | 'updatedAt' | 'searchVector' | 'titleVector'>
export type StoryRow = typeof stories.$inferSelect

export type PaperFilters = {
  since?: string
  until?: string
  minRelevance: number
  studyType?: string[]
  topic?: string[]
  preprint?: boolean
  q?: string
}

/**
 * The abstract only where its licence lets us serve it (the serializers apply the same rule): half
 * the corpus is under licences that do not, and reading, sending and decoding those abstracts was
 * a large share of a list page's cost.
 */
const servableAbstract = sql<string | null>`case when ${inArray(papers.abstractLicense, [...OPEN_LICENSES])} then ${papers.abstract} end`

/** Every column the API serves; analysis-only columns (MeSH, keywords, chemicals) stay behind. */
export const paperColumns = {
  id: papers.id, source: papers.source, doi: papers.doi, title: papers.title, authors: papers.authors,
  journal: papers.journal, publishedDate: papers.publishedDate, indexedDate: papers.indexedDate,
  preprint: papers.preprint, publicationTypes: papers.publicationTypes, url: papers.url,
  abstract: servableAbstract, abstractLicense: papers.abstractLicense,
  relevance: papers.relevance, relevanceConfidence: papers.relevanceConfidence, newsworthiness: papers.newsworthiness,
  studyType: papers.studyType, studyTypeConfidence: papers.studyTypeConfidence, topic: papers.topic,
  topicConfidence: papers.topicConfidence, promotional: papers.promotional, judgementModel: papers.judgementModel,
  judgementPromptVersion: papers.judgementPromptVersion, judgedAt: papers.judgedAt, extractedAt: papers.extractedAt,
}

/** The WHERE conditions shared by /papers and /search (decisions.md: every /papers filter applies to both). */
export function paperConditions(f: PaperFilters): SQL[] {
  const conditions: SQL[] = []
  // Unjudged papers have a null relevance, so any min_relevance > 0 leaves them out.
  if (f.minRelevance > 0) conditions.push(gte(papers.relevance, f.minRelevance))
  if (f.since) conditions.push(gte(papers.indexedDate, f.since))
  if (f.until) conditions.push(lte(papers.indexedDate, f.until))
  if (f.studyType) conditions.push(anyOf(papers.studyType, f.studyType))
  if (f.topic) conditions.push(anyOf(papers.topic, f.topic))
  if (f.preprint !== undefined) conditions.push(eq(papers.preprint, f.preprint))
  if (f.q) conditions.push(matchesQuery(f.q))
  return conditions
}

export type PaperListRow = PaperRow & { storyHeadline: string | null; storyDek: string | null }

/** Papers newest first by indexed_date, then id; `after` is the last row of the previous page. */
export async function listPapers(db: Db, filters: PaperFilters, limit: number, after: { indexedDate: string; id: string } | null) {
  const base = paperConditions(filters)
  const fetch = (where: SQL | undefined, n: number) =>
    db.select({ ...paperColumns, storyHeadline: stories.headline, storyDek: stories.dek })
      .from(papers)
      .leftJoin(stories, eq(stories.paperId, papers.id))
      .where(and(...base, where))
      .orderBy(desc(papers.indexedDate), asc(papers.id))
      .limit(n) as Promise<PaperListRow[]>
  return keysetPage(fetch, limit, after && {
    tiedAfter: and(eq(papers.indexedDate, after.indexedDate), gt(papers.id, after.id))!,
    beyond: lt(papers.indexedDate, after.indexedDate),
  })
}

/** `/papers/{id}` accepts ids case-insensitively: MED-123, med-123 and Med-123 are one paper. */
export function normalisePaperId(id: string): string | null {
  const match = /^(med|ppr)-(\d{1,12})$/i.exec(id)
  return match ? `${match[1].toUpperCase()}-${match[2]}` : null
}

export async function getPaperDetail(db: Db, id: string) {
  const [paper] = await db.select(paperColumns).from(papers).where(eq(papers.id, id))
  if (!paper) return null
  const [storyRows, upvoteRows, entityRows, claimRows] = await Promise.all([
    db.select().from(stories).where(eq(stories.paperId, id)),
    db.select({ n: sql<number>`count(*)::int` }).from(upvotes).where(eq(upvotes.paperId, id)),
    db.select({ type: entities.type, key: entities.key, name: entities.name, ids: entities.ids, role: paperEntities.role, detail: paperEntities.detail })
      .from(paperEntities).innerJoin(entities, eq(entities.id, paperEntities.entityId))
      .where(eq(paperEntities.paperId, id))
      .orderBy(asc(entities.type), asc(entities.key), asc(paperEntities.role)),
    selectClaims(db).where(eq(claims.paperId, id)).orderBy(desc(claims.createdAt), desc(claims.id)),
  ])
  return { paper: paper as PaperRow, story: storyRows[0] ?? null, upvotes: upvoteRows[0].n, entities: entityRows, claims: claimRows }
}
