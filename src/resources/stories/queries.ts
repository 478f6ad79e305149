/**
 * Reading published stories, for every interface: filtered on the story's date and its paper's judgement, keyset-paged.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { anyOf } from '../../queries/any-of'
import { papers, stories } from '../../db/schema'
import { PAPER_SELECT, type PaperRow, type PaperTextRow, type StoryRow } from '../papers/queries'
import { Conditions } from '../../queries/prepared'
import { windowedList } from '../../queries/windowed-page'
import { OPEN_LICENSES } from '../../taxonomy'

export type StoryFilters = {
  since?: string
  until?: string
  topic?: string[]
  studyType?: string[]
}

/**
 * Where the previous page ended: published_at as exact text (microseconds, which a JS Date would lose) and paper_id.
 */
export type StoryPosition = { publishedAt: string; paperId: string }

export type StoryListRow = { story: StoryRow; publishedAtText: string; paper: PaperRow }

export function storyConditions(f: StoryFilters): SQL[] {
  const conditions: SQL[] = []
  // since/until are UTC dates: [since 00:00 UTC, until + 1 day 00:00 UTC), a range the index can use.
  if (f.since) conditions.push(sql`${stories.publishedAt} >= (${f.since}::date)::timestamp at time zone 'UTC'`)
  if (f.until) conditions.push(sql`${stories.publishedAt} < (${f.until}::date + 1)::timestamp at time zone 'UTC'`)
  if (f.topic) conditions.push(anyOf(papers.topic, f.topic))
  if (f.studyType) conditions.push(anyOf(papers.studyType, f.studyType))
  return conditions
}

/** storyConditions as fragments of a prepared statement's WHERE clause (`s` stories, `p` papers). */
export function storyConditionsText(f: StoryFilters): Conditions {
  return storyFilterText(f, storyDatesText(f))
}

/** The filter's dates (since, until): a range of stories_published_idx, where a page's walk can start. */
export function storyDatesText(f: StoryFilters, where = new Conditions()): Conditions {
  if (f.since) where.add(`s.published_at >= ($?::date)::timestamp at time zone 'UTC'`, f.since)
  if (f.until) where.add(`s.published_at < ($?::date + 1)::timestamp at time zone 'UTC'`, f.until)
  return where
}

/** The filter's conditions but its dates: its paper's judgement. */
export function storyFilterText(f: StoryFilters, where = new Conditions()): Conditions {
  if (f.topic) where.add('p.topic = any($?::text[])', [...f.topic])
  if (f.studyType) where.add('p.study_type = any($?::text[])', [...f.studyType])
  return where
}

export type StoryPageRow = Omit<StoryRow, 'publishedAt'> & {
  publishedAt: string
  publishedAtText: string
} & PaperTextRow

/**
 * The story's columns (`s`), named apart from the paper's (paperId, headline, ... model, publishedAt) so a row can be
 * flat; publishedAtText is published_at in UTC with all six fractional digits, whatever the session's DateStyle and
 * TimeZone, so it can go into a cursor and come back as the very same instant.
 */
export const STORY_COLUMNS =
  `s.paper_id as "paperId", s.headline, s.dek, s.body, s.why_it_matters as ` +
  `"whyItMatters", s.caveats, s.support, s.model,
  s.published_at::text as "publishedAt",
  to_char(s.published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "publishedAtText"`

/**
 * A story row with its paper from `stories` (the table, or a window of it), as every story statement selects it (one
 * value: the open licences); the bulk export reads it too.
 */
const storyRowFrom = (stories: string) => `select ${PAPER_SELECT},
  ${STORY_COLUMNS}
from ${stories} s join papers p on p.id = s.paper_id`

export const STORY_ROW_FROM = storyRowFrom('stories')

/** The list's pages (src/queries/windowed-page.ts). */
const storyList = windowedList<StoryPageRow>({
  rowsFrom: (source) => storyRowFrom(source),
  table: 'stories',
  alias: 's',
  newest: 'order by s.published_at desc, s.paper_id asc',
  sorted: `order by s.published_at + interval '0 s' desc, s.paper_id asc`,
})

/** The stories in `range` (its conditions made afresh by each call), counted up to `cap`. */
export const storiesInRange = storyList.countRange

/**
 * The row itself serves as the paper (the story's columns beside it are never read as the paper's):
 * copying the paper's 25 columns out of it with a rest pattern took 11-17 µs a page, the rest 1 µs.
 */
export function storyListRow(row: StoryPageRow): StoryListRow {
  const { paperId, headline, dek, body, whyItMatters, caveats, support, model, publishedAt, publishedAtText } = row
  return {
    story: { paperId, headline, dek, body, whyItMatters, caveats, support, model, publishedAt },
    publishedAtText,
    paper: row,
  }
}

/** Stories newest first by published_at, then paper_id ascending; `after` is the last row of the previous page. */
export async function listStories(
  db: Db,
  filters: StoryFilters,
  limit: number,
  after: StoryPosition | null,
): Promise<StoryListRow[]> {
  const licences = [[...OPEN_LICENSES]]
  const fetch = async (position: () => Conditions, n: number) =>
    (
      await storyList.read(
        db,
        licences,
        {
          range: () => storyDatesText(filters, position()),
          filtered: storyFilterText(filters),
          sortedWhere: () => storyFilterText(filters, storyDatesText(filters, position())),
          // A filter is its paper's judgement, tested through a join for each story walked: dear, as q is for papers.
          dearTest: true,
        },
        n,
      )
    ).map(storyListRow)
  if (!after) return fetch(() => new Conditions(), limit + 1)
  // Two index ranges (src/queries/keyset.ts): the rest of the rows tied on published_at, then the older ones.
  const tied = await fetch(
    () =>
      new Conditions().add('s.published_at = $?::timestamptz', after.publishedAt).add('s.paper_id > $?', after.paperId),
    limit + 1,
  )
  if (tied.length > limit) return tied
  const rest = await fetch(
    () => new Conditions().add('s.published_at < $?::timestamptz', after.publishedAt),
    limit + 1 - tied.length,
  )
  return tied.concat(rest)
}
