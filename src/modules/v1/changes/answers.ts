/**
 * The answers of /papers, /stories and /claims when updated_since is given: the changed items in
 * their list shapes, tombstones for what a mirror of that list must drop, and the feed pagination.
 * The list routes only dispatch here, so the feed stays out of their (hot, separately tuned) code.
 */
import { t } from 'elysia'
import type { V1Context } from '../context'
import type { PaperFilters } from '../../../queries/papers'
import { claimListRow, type ClaimFilters, type ClaimPageRow } from '../../../queries/claims'
import { paperRowOf } from '../../../queries/papers'
import { readClaimChanges, readPaperChanges, readStoryChanges, type FeedRowBase, type StoryFeedFilters } from '../../../queries/changes'
import { serializeListedPaper } from '../papers/serialize'
import { serializeStoryItem } from '../stories/serialize'
import { storyListRow, type StoryPageRow } from '../../../queries/stories'
import { serializeClaimItem } from '../claims/serialize'
import { Integer, Paper } from '../model'
import { StoryItem } from '../stories/model'
import { ClaimItem } from '../claims/model'
import { FeedPagination, tombstone } from './model'
import { feedPaging, refuseWithFeed } from './feed'

export const PaperTombstone = tombstone('id', t.String(), 'paper')
// Keyed as a StoryItem is, by paper_id, so a mirror finds what to drop by the key it stored under.
export const StoryTombstone = tombstone('paper_id', t.String({ description: 'The paper the story is about.' }), 'story')
export const ClaimTombstone = tombstone('id', Integer(), 'claim')

export const PapersFeedAnswer = t.Object({ data: t.Array(t.Union([Paper, PaperTombstone])), pagination: FeedPagination },
  { description: 'With updated_since: changed papers (Paper) and tombstones, in change order.' })
export const StoriesFeedAnswer = t.Object({ data: t.Array(t.Union([StoryItem, StoryTombstone])), pagination: FeedPagination },
  { description: 'With updated_since: changed stories (StoryItem) and tombstones, in change order.' })
export const ClaimsFeedAnswer = t.Object({ data: t.Array(t.Union([ClaimItem, ClaimTombstone])), pagination: FeedPagination },
  { description: 'With updated_since: changed claims (ClaimItem) and tombstones, in change order.' })

/** The parameters of the usual list that a feed refuses (they search, look up, count or reshape). */
export const NOT_WITH_FEED = ['q', 'ids', 'fields', 'count', 'group_by']

const tombstoneOf = <Id>(row: FeedRowBase, id: Id, key: 'id' | 'paper_id' = 'id') => ({
  [key]: id, deleted: true as const,
  reason: row.exists ? 'excluded' as const : row.withdrawn ? 'withdrawn' as const : 'deleted' as const,
  changed_at: row.changedAt,
})

type Given = Record<string, unknown> & { cursor?: string; limit?: number }

export async function papersFeed({ db: reader, primary, baseUrl, secret }: V1Context, p: Given, filters: PaperFilters, updatedSince: string) {
  refuseWithFeed(p, NOT_WITH_FEED)
  const db = primary ?? reader // see V1Context.primary
  const { q: _q, ...listFilters } = filters
  const paging = await feedPaging(db, secret, 'papers-changes', ['paper'], { ...listFilters, updatedSince }, p)
  const rows = await readPaperChanges(db, listFilters, paging.window)
  const { items, pagination } = paging.page(rows)
  return {
    data: items.map((row) => row.matches
      ? serializeListedPaper(paperRowOf(row as never) as never, baseUrl)
      : tombstoneOf(row, row.itemId)),
    pagination,
  }
}

export async function storiesFeed({ db: reader, primary, baseUrl, secret }: V1Context, p: Given, filters: StoryFeedFilters, updatedSince: string) {
  refuseWithFeed(p, NOT_WITH_FEED)
  const db = primary ?? reader // see V1Context.primary
  const paging = await feedPaging(db, secret, 'stories-changes', ['story'], { ...filters, updatedSince }, p)
  const rows = await readStoryChanges(db, filters, paging.window)
  const { items, pagination } = paging.page(rows)
  return {
    data: items.map((row) => {
      if (!row.matches) return tombstoneOf(row, row.itemId, 'paper_id')
      return serializeStoryItem(storyListRow(row as unknown as StoryPageRow), baseUrl)
    }),
    pagination,
  }
}

export async function claimsFeed({ db: reader, primary, baseUrl, secret }: V1Context, p: Given, filters: ClaimFilters, updatedSince: string) {
  refuseWithFeed(p, NOT_WITH_FEED)
  const db = primary ?? reader // see V1Context.primary
  const paging = await feedPaging(db, secret, 'claims-changes', ['claim'], { ...filters, updatedSince }, p)
  const rows = await readClaimChanges(db, filters, paging.window)
  const { items, pagination } = paging.page(rows)
  return {
    data: items.map((row) => {
      if (!row.matches) return tombstoneOf(row, Number(row.itemId))
      return serializeClaimItem(claimListRow(row as unknown as ClaimPageRow), baseUrl)
    }),
    pagination,
  }
}
