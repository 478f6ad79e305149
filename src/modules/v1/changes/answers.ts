/**
 * The answers of /papers, /stories and /claims when updated_since is given: the changed items in
 * their list shapes, tombstones for what a mirror of that list must drop, and the feed pagination.
 * The list routes only dispatch here, so the feed stays out of their (hot, separately tuned) code.
 */
import { t } from 'elysia'
import type { V1Context } from '../context'
import type { PaperFilters } from '../../../resources/papers/queries'
import { claimListRow, type ClaimFilters, type ClaimPageRow } from '../../../resources/claims/queries'
import {
  readClaimChanges,
  readPaperChanges,
  readStoryChanges,
  type FeedItemRow,
  type FeedResource,
  type FeedWindow,
  type StoryFeedFilters,
} from '../../../resources/changes/queries'
import type { Db } from '../../../db/client'
import { serializeListedPaper } from '../../../resources/papers/serialize'
import { serializeStoryItem } from '../../../resources/stories/serialize'
import { storyListRow, type StoryPageRow } from '../../../resources/stories/queries'
import { serializeClaimItem } from '../../../resources/claims/serialize'
import { Integer, Paper } from '../model'
import { StoryItem } from '../stories/model'
import { ClaimItem } from '../claims/model'
import { FeedPagination, tombstone } from './model'
import { feedPaging, refuseWithFeed } from './feed'

export const PaperTombstone = tombstone('id', t.String(), 'paper')
// Keyed as a StoryItem is, by paper_id, so a mirror finds what to drop by the key it stored under.
export const StoryTombstone = tombstone('paper_id', t.String({ description: 'The paper the story is about.' }), 'story')
export const ClaimTombstone = tombstone('id', Integer(), 'claim')

export const PapersFeedAnswer = t.Object(
  { data: t.Array(t.Union([Paper, PaperTombstone])), pagination: FeedPagination },
  { description: 'With updated_since: changed papers (Paper) and tombstones, in change order.' },
)
export const StoriesFeedAnswer = t.Object(
  { data: t.Array(t.Union([StoryItem, StoryTombstone])), pagination: FeedPagination },
  { description: 'With updated_since: changed stories (StoryItem) and tombstones, in change order.' },
)
export const ClaimsFeedAnswer = t.Object(
  { data: t.Array(t.Union([ClaimItem, ClaimTombstone])), pagination: FeedPagination },
  { description: 'With updated_since: changed claims (ClaimItem) and tombstones, in change order.' },
)

/** The parameters of the usual list that a feed refuses (they search, look up, count or reshape). */
export const NOT_WITH_FEED = ['q', 'ids', 'fields', 'count', 'group_by', 'sort']

type Given = Record<string, unknown> & { cursor?: string; limit?: number }

/** A tombstone for a row that changed and is no longer in the list the request describes. */
const tombstoneOf = <Id>(row: FeedItemRow, id: Id, key: 'id' | 'paper_id' = 'id') => ({
  [key]: id,
  deleted: true as const,
  reason: row.exists ? ('excluded' as const) : row.withdrawn ? ('withdrawn' as const) : ('deleted' as const),
  changed_at: row.changedAt,
})

/**
 * One resource's feed: refuses the list parameters a feed cannot take, pages from the primary (see
 * V1Context.primary), and answers each row as the list's item when it still matches, else as a tombstone.
 */
async function feedAnswer<Filters extends object, Row extends FeedItemRow, Item>(
  { db: reader, primary, secret }: V1Context,
  p: Given,
  updatedSince: string,
  feed: {
    cursorScope: string
    resource: FeedResource
    filters: Filters
    read: (db: Db, filters: Filters, window: FeedWindow) => Promise<Row[]>
  },
  answer: (row: Row) => Item,
) {
  refuseWithFeed(p, NOT_WITH_FEED)
  const db = primary ?? reader
  const paging = await feedPaging(db, secret, feed.cursorScope, [feed.resource], { ...feed.filters, updatedSince }, p)
  const { items, pagination } = paging.page(await feed.read(db, feed.filters, paging.window))
  return { data: items.map(answer), pagination }
}

export function papersFeed(v1: V1Context, p: Given, filters: PaperFilters, updatedSince: string) {
  const { q: _q, ...listFilters } = filters
  return feedAnswer(
    v1,
    p,
    updatedSince,
    { cursorScope: 'papers-changes', resource: 'paper', filters: listFilters, read: readPaperChanges },
    (row) => (row.matches ? serializeListedPaper(row as never, v1.baseUrl) : tombstoneOf(row, row.itemId)),
  )
}

export function storiesFeed(v1: V1Context, p: Given, filters: StoryFeedFilters, updatedSince: string) {
  return feedAnswer(
    v1,
    p,
    updatedSince,
    { cursorScope: 'stories-changes', resource: 'story', filters, read: readStoryChanges },
    (row) =>
      row.matches
        ? serializeStoryItem(storyListRow(row as unknown as StoryPageRow), v1.baseUrl)
        : tombstoneOf(row, row.itemId, 'paper_id'),
  )
}

export function claimsFeed(v1: V1Context, p: Given, filters: ClaimFilters, updatedSince: string) {
  return feedAnswer(
    v1,
    p,
    updatedSince,
    { cursorScope: 'claims-changes', resource: 'claim', filters, read: readClaimChanges },
    (row) =>
      row.matches
        ? serializeClaimItem(claimListRow(row as unknown as ClaimPageRow), v1.baseUrl)
        : tombstoneOf(row, Number(row.itemId)),
  )
}
