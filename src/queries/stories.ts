/** Reading published stories, for every interface: filtered on the story's date and its paper's judgement, keyset-paged. */
import { and, asc, desc, eq, gt, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client'
import { anyOf } from './any-of'
import { papers, stories } from '../db/schema'
import { keysetPage } from './keyset'
import { paperColumns, type PaperRow, type StoryRow } from './papers'

export type StoryFilters = {
  since?: string
  until?: string
  topic?: string[]
  studyType?: string[]
}

/** Where the previous page ended: published_at as exact text (microseconds, which a JS Date would lose) and paper_id. */
export type StoryPosition = { publishedAt: string; paperId: string }

export type StoryListRow = { story: StoryRow; publishedAtText: string; paper: PaperRow }

/**
 * published_at rendered in UTC with all six fractional digits, whatever the session's DateStyle
 * and TimeZone, so it can go into a cursor and come back as the very same instant.
 */
const exactPublishedAt = sql<string>`to_char(${stories.publishedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

export function storyConditions(f: StoryFilters): SQL[] {
  const conditions: SQL[] = []
  // since/until are UTC dates: [since 00:00 UTC, until + 1 day 00:00 UTC), a range the index can use.
  if (f.since) conditions.push(sql`${stories.publishedAt} >= (${f.since}::date)::timestamp at time zone 'UTC'`)
  if (f.until) conditions.push(sql`${stories.publishedAt} < (${f.until}::date + 1)::timestamp at time zone 'UTC'`)
  if (f.topic) conditions.push(anyOf(papers.topic, f.topic))
  if (f.studyType) conditions.push(anyOf(papers.studyType, f.studyType))
  return conditions
}

/** Stories newest first by published_at, then paper_id ascending; `after` is the last row of the previous page. */
export async function listStories(db: Db, filters: StoryFilters, limit: number, after: StoryPosition | null) {
  const base = storyConditions(filters)
  const fetch = (where: SQL | undefined, n: number) =>
    db.select({ story: stories, publishedAtText: exactPublishedAt, paper: paperColumns })
      .from(stories)
      .innerJoin(papers, eq(papers.id, stories.paperId))
      .where(and(...base, where))
      .orderBy(desc(stories.publishedAt), asc(stories.paperId))
      .limit(n) as Promise<StoryListRow[]>
  return keysetPage(fetch, limit, after && {
    tiedAfter: and(sql`${stories.publishedAt} = ${after.publishedAt}::timestamptz`, gt(stories.paperId, after.paperId))!,
    beyond: sql`${stories.publishedAt} < ${after.publishedAt}::timestamptz`,
  })
}
