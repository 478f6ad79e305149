/**
 * What a brief is written from: the notable analysed papers of the window (aging biology,
 * relevance 2 or more, most newsworthy first) with their main claims and stories, and the analysed
 * feed articles of the window, chosen by topic, entity or source tag. Bounded, so a brief over a
 * busy week at a million papers reads a few dozen rows per item, not the week.
 */
import { and, between, desc, eq, gte, inArray, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import {
  articleAnalyses,
  articles,
  claims,
  contradictionGroups,
  entities,
  paperEntities,
  papers,
  rssSources,
  stories,
} from '../../db/schema'
import { objectEntity, subjectEntity } from '../../resources/claims/queries'
import { TOPIC_INFO } from '../../taxonomy'
import { itemKind, type ItemKind } from './item-kind'

export const MAX_PAPERS = 40
export const MAX_ARTICLES = 20
const CLAIMS_PER_PAPER = 2

export type Selection = {
  since: string
  until: string
  topics: string[]
  entities: string[] // 'type:key'
  sourceTags: string[]
  tagBased: boolean // items must carry one of the tags (topics, entities, source tags)
}

export type ClaimFact = {
  subject: string
  subjectKey: string | null
  relation: string
  object: string
  objectKey: string | null
  organism: string | null
  direction: string | null
  magnitude: string | null
}

export type PaperItem = {
  ref: string
  id: string
  title: string
  journal: string
  publishedDate: string | null
  indexedDate: string
  url: string
  studyType: string | null
  topic: string | null
  relevance: number
  newsworthiness: number
  preprint: boolean
  claims: ClaimFact[]
  story: { headline: string; dek: string } | null
}

export type ArticleItem = {
  ref: string
  id: number
  title: string
  link: string | null
  source: string
  publishedAt: string | null
  summary: string
  keyPoints: string[]
  tags: string[]
  paperId: string | null
  kind: ItemKind
}

export type Disagreement = {
  subject: string
  object: string
  up: number
  down: number
  groupId: string
  paperId: string
}

/** `articles` are research items; `notices` (events, calls, jobs, press notices: item-kind.ts) are set apart. */
export type Material = {
  papers: PaperItem[]
  articles: ArticleItem[]
  notices: ArticleItem[]
  papersInWindow: number
  disagreements: Disagreement[]
}

async function entityIds(db: Db, keys: string[]): Promise<number[]> {
  if (keys.length === 0) return []
  const pairs = keys.map((k) => [k.slice(0, k.indexOf(':')), k.slice(k.indexOf(':') + 1)] as const)
  const rows = await db
    .select({ id: entities.id })
    .from(entities)
    .where(or(...pairs.map(([type, key]) => and(eq(entities.type, type), eq(entities.key, key)))))
  return rows.map((r) => r.id)
}

async function selectPapers(
  db: Db,
  s: Selection,
): Promise<{ rows: Omit<PaperItem, 'ref' | 'claims' | 'story'>[]; inWindow: number }> {
  const conditions: SQL[] = [
    between(papers.indexedDate, s.since, s.until),
    gte(papers.relevance, 2),
    isNotNull(papers.judgedAt),
  ]
  const tagged: SQL[] = []
  if (s.topics.length) tagged.push(inArray(papers.topic, s.topics))
  const ids = await entityIds(db, s.entities)
  if (ids.length) {
    tagged.push(
      inArray(
        papers.id,
        db
          .select({ id: paperEntities.paperId })
          .from(paperEntities)
          .where(and(inArray(paperEntities.entityId, ids), between(paperEntities.indexedDate, s.since, s.until))),
      ),
    )
  }
  if (s.tagBased || s.topics.length) conditions.push(tagged.length ? or(...tagged)! : sql`false`)
  const where = and(...conditions)
  const [rows, [count]] = await Promise.all([
    db
      .select({
        id: papers.id,
        title: papers.title,
        journal: papers.journal,
        publishedDate: papers.publishedDate,
        indexedDate: papers.indexedDate,
        url: papers.url,
        studyType: papers.studyType,
        topic: papers.topic,
        relevance: papers.relevance,
        newsworthiness: papers.newsworthiness,
        preprint: papers.preprint,
      })
      .from(papers)
      .where(where)
      .orderBy(
        sql`${papers.newsworthiness} desc nulls last`,
        desc(papers.relevance),
        desc(papers.indexedDate),
        papers.id,
      )
      .limit(MAX_PAPERS),
    db.select({ n: sql<number>`count(*)::int` }).from(papers).where(where),
  ])
  return {
    rows: rows.map((r) => ({ ...r, relevance: r.relevance ?? 0, newsworthiness: r.newsworthiness ?? 0 })),
    inWindow: Number(count?.n ?? 0),
  }
}

async function claimsOf(db: Db, paperIds: string[]): Promise<Map<string, ClaimFact[]>> {
  const out = new Map<string, ClaimFact[]>()
  if (paperIds.length === 0) return out
  const rows = await db
    .select({
      paperId: claims.paperId,
      subject: claims.subjectText,
      relation: claims.relation,
      object: claims.objectText,
      organism: claims.organism,
      direction: claims.direction,
      magnitude: claims.magnitude,
      subjectType: subjectEntity.type,
      subjectKey: subjectEntity.key,
      subjectName: subjectEntity.name,
      objectType: objectEntity.type,
      objectKey: objectEntity.key,
      objectName: objectEntity.name,
    })
    .from(claims)
    .leftJoin(subjectEntity, eq(subjectEntity.id, claims.subjectEntityId))
    .leftJoin(objectEntity, eq(objectEntity.id, claims.objectEntityId))
    .where(inArray(claims.paperId, paperIds))
    .orderBy(
      claims.paperId,
      sql`(${claims.context}->>'primary') = 'true' desc nulls last`,
      sql`${claims.confidence} desc nulls last`,
      claims.id,
    )
  for (const r of rows) {
    const list = out.get(r.paperId) ?? []
    if (list.length >= CLAIMS_PER_PAPER) continue
    list.push({
      subject: r.subjectName ?? r.subject,
      subjectKey: r.subjectType ? `${r.subjectType}:${r.subjectKey}` : null,
      relation: r.relation,
      object: r.objectName ?? r.object,
      objectKey: r.objectType ? `${r.objectType}:${r.objectKey}` : null,
      organism: r.organism,
      direction: r.direction,
      magnitude: r.magnitude,
    })
    out.set(r.paperId, list)
  }
  return out
}

async function selectArticles(db: Db, s: Selection): Promise<Omit<ArticleItem, 'ref' | 'kind'>[]> {
  const until = new Date(Date.parse(`${s.until}T00:00:00Z`) + 86_400_000)
  const conditions: SQL[] = [gte(articles.analysedAt, new Date(`${s.since}T00:00:00Z`)), lt(articles.analysedAt, until)]
  const tagged: SQL[] = []
  if (s.sourceTags.length) tagged.push(sql`${rssSources.tags} && ${sql.param(s.sourceTags)}::text[]`)
  if (s.entities.length) {
    tagged.push(sql`exists (select 1 from jsonb_array_elements(case when jsonb_typeof(${articleAnalyses.entities}) =
      'array' then ${articleAnalyses.entities} else '[]'::jsonb end) e
      where (e->>'type') || ':' || (e->>'key') = any(${sql.param(s.entities)}::text[]))`)
  }
  if (s.topics.length) {
    const names = s.topics
      .flatMap((t) => [t, TOPIC_INFO.find((i) => i.slug === t)?.name ?? t])
      .map((n) => n.toLowerCase())
    tagged.push(
      sql`(${inArray(papers.topic, s.topics)} or exists (select 1 from unnest(${articleAnalyses.tags}) tag where
        lower(tag) = any(${sql.param(names)}::text[])))`,
    )
  }
  if (s.tagBased || s.topics.length) conditions.push(tagged.length ? or(...tagged)! : sql`false`)
  const rows = await db
    .select({
      id: articles.id,
      title: articles.title,
      link: articles.link,
      source: rssSources.name,
      publishedAt: articles.publishedAt,
      summary: articleAnalyses.summary,
      keyPoints: articleAnalyses.keyPoints,
      tags: articleAnalyses.tags,
      paperId: articles.paperId,
    })
    .from(articles)
    .innerJoin(articleAnalyses, eq(articleAnalyses.articleId, articles.id))
    .innerJoin(rssSources, eq(rssSources.id, articles.sourceId))
    .leftJoin(papers, eq(papers.id, articles.paperId))
    .where(and(...conditions))
    .orderBy(sql`${articles.publishedAt} desc nulls last`, desc(articles.id))
    .limit(MAX_ARTICLES)
  return rows.map((r) => ({ ...r, publishedAt: r.publishedAt?.toISOString() ?? null }))
}

/** Stored contradiction groups that the selected papers' main claims take part in (no recomputation). */
async function disagreementsOf(db: Db, items: PaperItem[]): Promise<Disagreement[]> {
  const wanted = new Map<string, string>()
  for (const p of items) {
    for (const c of p.claims)
      if (c.subjectKey && c.objectKey && !wanted.has(`${c.subjectKey}|${c.objectKey}`))
        wanted.set(`${c.subjectKey}|${c.objectKey}`, p.id)
  }
  if (wanted.size === 0) return []
  const keys = [...wanted.keys()]
  const rows = await db
    .select()
    .from(contradictionGroups)
    .where(
      sql`(${contradictionGroups.subjectKey} || '|' || ${contradictionGroups.objectKey}) =
        any(${sql.param(keys)}::text[])`,
    )
    .orderBy(desc(contradictionGroups.score))
    .limit(8)
  return rows.map((g) => ({
    subject: g.subjectLabel,
    object: g.objectLabel,
    up: g.papersIncrease,
    down: g.papersDecrease,
    groupId: g.id,
    paperId: wanted.get(`${g.subjectKey}|${g.objectKey}`)!,
  }))
}

export async function gatherMaterial(db: Db, s: Selection): Promise<Material> {
  const [{ rows, inWindow }, articleRows] = await Promise.all([selectPapers(db, s), selectArticles(db, s)])
  const ids = rows.map((r) => r.id)
  const [claimMap, storyRows] = await Promise.all([
    claimsOf(db, ids),
    ids.length
      ? db
          .select({ paperId: stories.paperId, headline: stories.headline, dek: stories.dek })
          .from(stories)
          .where(inArray(stories.paperId, ids))
      : [],
  ])
  const storyBy = new Map(storyRows.map((s) => [s.paperId, { headline: s.headline, dek: s.dek }]))
  const paperItems = rows.map((r, i) => ({
    ...r,
    ref: `P${i + 1}`,
    claims: claimMap.get(r.id) ?? [],
    story: storyBy.get(r.id) ?? null,
  }))
  const articleItems = articleRows.map(
    (a, i): ArticleItem => ({ ...a, ref: `A${i + 1}`, kind: itemKind(a.title, a.summary) }),
  )
  return {
    papers: paperItems,
    articles: articleItems.filter((a) => a.kind === 'research'),
    notices: articleItems.filter((a) => a.kind !== 'research'),
    papersInWindow: inWindow,
    disagreements: await disagreementsOf(db, paperItems),
  }
}
