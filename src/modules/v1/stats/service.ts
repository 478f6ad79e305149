/**
 * The corpus numbers behind /stats and /topics, in three aggregate queries: paper and knowledge
 * counts (FILTER clauses and scalar subqueries), aging papers grouped by study type and topic (which
 * also gives each topic's 7-day and total counts), and the last 30 days. They run in one read-only
 * repeatable-read transaction, so the numbers agree with one another.
 */
import { and, between, eq, gte, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { claims, paperEntities, papers, stories } from '../../../db/schema'
import {
  AGING_RELEVANCE,
  CORE_RELEVANCE,
  OPEN_LICENSES,
  STUDY_TYPES,
  STUDY_TYPE_LABELS,
  TANGENTIAL_RELEVANCE,
  TOPICS,
  type StudyType,
  type TopicSlug,
} from '../../../taxonomy'
import type { StatsData } from './model'

export type TopicCounts = Record<TopicSlug, { papers_7d: number; papers_total: number }>
export type Corpus = { stats: StatsData; topics: TopicCounts }

const DAY_MS = 86_400_000
export const DAILY_DAYS = 30
export const RECENT_DAYS = 7

const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const count = sql<number>`count(*)::int`
const countWhere = (condition: SQL | undefined) => sql<number>`(count(*) filter (where ${condition}))::int`
const countOf = (query: SQL) => sql<number>`(${query})::int`

function isStudyType(value: string | null): value is StudyType {
  return value !== null && (STUDY_TYPES as readonly string[]).includes(value)
}
function isTopic(value: string | null): value is TopicSlug {
  return value !== null && (TOPICS as readonly string[]).includes(value)
}

/** Computes every number as of `now` (UTC days: today and the days before it). */
export async function computeCorpus(db: Db, now: Date): Promise<Corpus> {
  const todayMs = Math.floor(now.getTime() / DAY_MS) * DAY_MS
  const today = utcDate(todayMs)
  const recentFrom = utcDate(todayMs - (RECENT_DAYS - 1) * DAY_MS)
  const days = Array.from({ length: DAILY_DAYS }, (_, i) => utcDate(todayMs - i * DAY_MS))
  const aging = gte(papers.relevance, AGING_RELEVANCE)

  const [totals, groups, dailyRows] = await db.transaction(
    async (tx) => {
      const totals = await tx
        .select({
          total: count,
          judged: countWhere(and(isNotNull(papers.relevance), isNotNull(papers.judgedAt))),
          aging: countWhere(aging),
          core: countWhere(gte(papers.relevance, CORE_RELEVANCE)),
          tangential: countWhere(
            and(gte(papers.relevance, TANGENTIAL_RELEVANCE), lt(papers.relevance, AGING_RELEVANCE)),
          ),
          preprints: countWhere(eq(papers.preprint, true)),
          openAbstracts: countWhere(
            and(inArray(papers.abstractLicense, [...OPEN_LICENSES]), isNotNull(papers.abstract)),
          ),
          extracted: countWhere(isNotNull(papers.extractedAt)),
          firstIndexed: sql<string | null>`min(${papers.indexedDate})::text`,
          lastIndexed: sql<string | null>`max(${papers.indexedDate})::text`,
          stories: countOf(sql`select count(*) from ${stories}`),
          entities: countOf(sql`select count(distinct ${paperEntities.entityId}) from ${paperEntities}`),
          claims: countOf(sql`select count(*) from ${claims}`),
        })
        .from(papers)
      const groups = await tx
        .select({
          studyType: papers.studyType,
          topic: papers.topic,
          papers: count,
          recent: countWhere(between(papers.indexedDate, recentFrom, today)),
        })
        .from(papers)
        .where(aging)
        .groupBy(papers.studyType, papers.topic)
      const dailyRows = await tx
        .select({
          date: papers.indexedDate,
          papers: count,
          aging: countWhere(aging),
          preprints: countWhere(eq(papers.preprint, true)),
        })
        .from(papers)
        .where(between(papers.indexedDate, days[DAILY_DAYS - 1], today))
        .groupBy(papers.indexedDate)
      return [totals[0], groups, dailyRows] as const
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  )

  const byStudyType = new Map<StudyType, number>(STUDY_TYPES.map((s) => [s, 0]))
  const topics = Object.fromEntries(TOPICS.map((s) => [s, { papers_7d: 0, papers_total: 0 }])) as TopicCounts
  for (const g of groups) {
    if (isStudyType(g.studyType)) byStudyType.set(g.studyType, byStudyType.get(g.studyType)! + g.papers)
    if (isTopic(g.topic)) {
      topics[g.topic].papers_total += g.papers
      topics[g.topic].papers_7d += g.recent
    }
  }
  const byDate = new Map(dailyRows.map((d) => [d.date, d]))

  return {
    stats: {
      papers: {
        total: totals.total,
        judged: totals.judged,
        aging: totals.aging,
        core: totals.core,
        tangential: totals.tangential,
        preprints: totals.preprints,
        open_abstracts: totals.openAbstracts,
      },
      stories: { published: totals.stories },
      knowledge: { papers_extracted: totals.extracted, entities: totals.entities, claims: totals.claims },
      by_study_type: STUDY_TYPES.map((s) => ({
        study_type: s,
        label: STUDY_TYPE_LABELS[s],
        papers: byStudyType.get(s)!,
      })),
      by_topic: TOPICS.map((s) => ({ topic: s, papers: topics[s].papers_total })),
      daily: days.map((date) => {
        const d = byDate.get(date)
        return { date, papers: d?.papers ?? 0, aging: d?.aging ?? 0, preprints: d?.preprints ?? 0 }
      }),
      coverage: { first_indexed: totals.firstIndexed, last_indexed: totals.lastIndexed },
      generated_at: now.toISOString(),
    },
    topics,
  }
}
