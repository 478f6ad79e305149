/**
 * Reading the change feed (updated_since on /papers, /stories and /claims, and GET /api/v1/changes).
 *
 * The feed is the table change_feed, one row per item at the position (txid, seq) of its latest
 * change, written by triggers (drizzle/0014_change_feed.sql). A page is read in position order.
 *
 * Why (txid, seq) and a horizon, not a timestamp or a sequence alone: a change gets its sequence
 * number or timestamp when it is written, but becomes visible when its transaction commits, which
 * may be much later. A reader that went past seq 105 while the transaction holding seq 102 was
 * still open would never see 102. So a page only hands out rows whose writing transaction is below
 * a horizon under which every transaction that could write the feed has ended; rows are ordered by
 * transaction first, so "below the horizon" is a prefix of the order. Every later write comes from
 * a transaction at or above the horizon and lands after any position already handed out; an item
 * written again moves forward to its new position.
 *
 * The horizon (feedHorizon) is read in a statement before the page's: the lowest transaction id
 * still running in this database (pg_stat_activity.backend_xid, and prepared transactions), capped
 * by the first id not yet assigned when that statement's snapshot was taken. Anything below it had
 * ended before the page's statement took its snapshot, so its rows are there or never will be.
 * It is per database rather than the snapshot's xmin (pg_snapshot_xmin(pg_current_snapshot())), which
 * is just as safe but counts every database of the cluster: a bulk load or an idle-in-transaction
 * session in another database would hold the feed back for its whole length. On a hot-standby
 * replica pg_stat_activity cannot see the primary's transactions, so there the snapshot's xmin is
 * the horizon. On PGlite (one connection, one transaction at a time) the horizon is simply the next
 * transaction id. The API reads the feed from the primary (V1Context.primary): replicas are chosen
 * per query, and a horizon from one server with a page from a more lagging one could pass over rows.
 * A long transaction in this database (an idle-in-transaction session, one huge load) holds the feed
 * back until it ends: late, never wrong.
 *
 * The items are read in the same statement as the positions: an item that no longer exists is a
 * tombstone, whatever the row's hint says, and an item that exists but no longer matches the
 * request's filters is reported as excluded (a mirror of a filtered list drops it).
 */
import type { Db } from '../../db/client'
import { CLAIM_COLUMNS, claimConditions, type ClaimFilters } from '../claims/queries'
import { PAPER_SELECT, paperConditionsText, type PaperFilters } from '../papers/queries'
import { preparedStatement, statementFamily } from '../../queries/prepared'
import { STORY_COLUMNS, storyConditionsText, type StoryFilters } from '../stories/queries'
import { OPEN_LICENSES } from '../../taxonomy'

export type FeedResource = 'paper' | 'story' | 'claim'
export const FEED_RESOURCES = ['paper', 'story', 'claim'] as const

/** A position in the feed: the writing transaction (xid8, as text: it can pass 2^53) and the row's sequence number. */
export type FeedPosition = { txid: string; seq: string }

/**
 * Tombstones are kept this long; a cursor stays usable one day less, so it never outlives a tombstone it still has to
 * hand out.
 */
export const TOMBSTONE_RETENTION_DAYS = 31
export const CURSOR_LIFETIME_DAYS = 30

/** What every feed row carries besides the item. */
export type FeedRowBase = {
  itemId: string
  txid: string
  seq: string
  changedAt: string
  exists: boolean
  matches: boolean
}

/** A row of a resource's own feed (/papers, /stories, /claims with updated_since). */
export type FeedItemRow = FeedRowBase & {
  /** The paper (of a paper or story row) was withdrawn at the source (withdrawn_papers). */
  withdrawn: boolean
}

/**
 * The horizon (see above), as xid8 text. backend_xid is a 32-bit xid; it is widened to the 64-bit
 * xid8 against the snapshot's xmax, which it can only be (less than 2^31) behind.
 */
const horizonStatement = preparedStatement<{ horizon: string }>(`with s as (select pg_current_snapshot() as snap),
running as (
  select backend_xid as xid from pg_stat_activity where datname = current_database() and backend_xid is not null
  union all
  select transaction from pg_prepared_xacts where database = current_database()),
widened as (
  select pg_snapshot_xmax(s.snap)::text::numeric
    - ((pg_snapshot_xmax(s.snap)::text::numeric % 4294967296) - r.xid::text::numeric + 4294967296) % 4294967296 as xid
  from running r, s)
select case when pg_is_in_recovery() then pg_snapshot_xmin(s.snap)::text
  else least(pg_snapshot_xmax(s.snap)::text::numeric, (select min(xid) from widened))::text end as horizon
from s`)

export async function feedHorizon(db: Db): Promise<string> {
  const [row] = await horizonStatement(db, [])
  return row!.horizon
}

const EXACT = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

/** The page's positions. $? in order: horizon, txid, seq, updated_since, limit. */
const positions = (resource: string) => `with e as (
  select f.item_id, f.txid, f.seq, f.changed_at from change_feed f
  where f.resource = '${resource}' and f.txid < $?::xid8
    and (f.txid, f.seq) > ($?::xid8, $?::bigint) and f.changed_at >= $?::timestamptz
  order by f.txid, f.seq limit $?)`

const BASE_COLUMNS =
  `e.item_id as "itemId", e.txid::text as txid, e.seq::text as seq, ${EXACT('e.changed_at')} as ` + `"changedAt"`

/** $? in order: the positions' five, the filters' values, the open licences. */
const paperPage = statementFamily<FeedItemRow & Record<string, unknown>>(
  (where) => `${positions('paper')}
select ${BASE_COLUMNS}, p.id is not null as exists, coalesce(p.id is not null and ${where}, false) as matches,
  exists (select 1 from withdrawn_papers w where w.id = e.item_id) as withdrawn,
  ${PAPER_SELECT}, s.headline as "storyHeadline", s.dek as "storyDek"
from e left join papers p on p.id = e.item_id left join stories s on s.paper_id = p.id
order by e.txid, e.seq`,
)

const storyPage = statementFamily<FeedItemRow & Record<string, unknown>>(
  (where) =>
    `${positions('story')}
select ${BASE_COLUMNS}, s.paper_id is not null as exists, coalesce(s.paper_id is not null and ${where}, false) as ` +
    `matches,
  exists (select 1 from withdrawn_papers w where w.id = e.item_id) as withdrawn,
  ${PAPER_SELECT},
  ${STORY_COLUMNS}
from e left join stories s on s.paper_id = e.item_id left join papers p on p.id = s.paper_id
order by e.txid, e.seq`,
)

const claimPage = statementFamily<FeedItemRow & Record<string, unknown>>(
  (where) => `${positions('claim')}
select ${BASE_COLUMNS}, c.id is not null as exists, coalesce(c.id is not null and ${where}, false) as matches,
  false as withdrawn, -- a deleted claim's row keeps no paper id to look up
  ${CLAIM_COLUMNS}
from e left join claims c on c.id = e.item_id::integer
  left join papers p on p.id = c.paper_id
  left join entities se on se.id = c.subject_entity_id left join entities oe on oe.id = c.object_entity_id
order by e.txid, e.seq`,
)

export type StoryFeedFilters = StoryFilters

/** Where a page reads: below `horizon`, after `after`, changed at or after `updatedSince`. */
export type FeedWindow = { horizon: string; after: FeedPosition; updatedSince: string; limit: number }

const positionValues = (w: FeedWindow) => [w.horizon, w.after.txid, w.after.seq, w.updatedSince, w.limit + 1]

export function readPaperChanges(db: Db, filters: PaperFilters, w: FeedWindow) {
  return paperPage(db, positionValues(w), paperConditionsText(filters), [[...OPEN_LICENSES]])
}

export function readStoryChanges(db: Db, filters: StoryFeedFilters, w: FeedWindow) {
  return storyPage(db, positionValues(w), storyConditionsText(filters), [[...OPEN_LICENSES]])
}

export async function readClaimChanges(db: Db, filters: ClaimFilters, w: FeedWindow) {
  return claimPage(db, positionValues(w), await claimConditions(db, filters), [])
}

export type ChangeRow = FeedRowBase & { resource: FeedResource }

/** Whether the item of feed row `f` still exists. */
const ITEM_EXISTS = (f: string) => `case ${f}.resource
    when 'paper' then exists (select 1 from papers p where p.id = ${f}.item_id)
    when 'story' then exists (select 1 from stories s where s.paper_id = ${f}.item_id)
    when 'claim' then exists (select 1 from claims c where c.id = ${f}.item_id::integer)
  end`

/**
 * Every resource's changes in one order, for GET /api/v1/changes: positions only, and whether the
 * item still exists. $? in order: resources, txid, seq, updated_since, limit.
 */
const changePage = preparedStatement<ChangeRow>(`with e as (
  select f.resource, f.item_id, f.txid, f.seq, f.changed_at from change_feed f
  where f.resource = any($?::text[]) and f.txid < $?::xid8
    and (f.txid, f.seq) > ($?::xid8, $?::bigint) and f.changed_at >= $?::timestamptz
  order by f.txid, f.seq limit $?)
select ${BASE_COLUMNS}, e.resource, ${ITEM_EXISTS('e')} as exists, true as matches
from e
order by e.txid, e.seq`)

export function readChanges(db: Db, resources: readonly FeedResource[], w: FeedWindow) {
  return changePage(db, [[...resources], ...positionValues(w)])
}

/**
 * Where a walk from `updatedSince` starts: just before the oldest transaction that wrote a row at
 * or after that time, or the snapshot's xmin if lower (a transaction still open may yet write one,
 * and it is at or above that xmin). Read by the changed_at index; only the first page of a walk asks.
 */
const startOf = preparedStatement<{ txid: string }>(
  `select least(
    coalesce((select min(f.txid) from change_feed f where f.changed_at >= $?::timestamptz and f.resource = ` +
    `any($?::text[])),
      pg_snapshot_xmin(pg_current_snapshot())),
    pg_snapshot_xmin(pg_current_snapshot()))::text as txid`,
)

export async function feedStart(
  db: Db,
  resources: readonly FeedResource[],
  updatedSince: string,
): Promise<FeedPosition> {
  const [row] = await startOf(db, [updatedSince, [...resources]])
  return { txid: row!.txid, seq: '0' } // seq starts at 1, so (txid, 0) comes before every row of that transaction
}

/** The later of two positions. */
export function laterPosition(a: FeedPosition, b: FeedPosition): FeedPosition {
  const [ta, tb] = [BigInt(a.txid), BigInt(b.txid)]
  if (ta !== tb) return ta > tb ? a : b
  return BigInt(a.seq) >= BigInt(b.seq) ? a : b
}

/**
 * Drops tombstones older than the retention, and rows of items that exist again are left alone.
 * Run daily by the scheduler; returns how many went.
 */
const purge = preparedStatement<{ n: number }>(`with gone as (
  delete from change_feed f where f.deleted and f.changed_at < now() - make_interval(days => $?::integer)
    and not coalesce(${ITEM_EXISTS('f')}, false)
  returning 1)
select count(*)::int as n from gone`)

export async function purgeTombstones(db: Db, retentionDays = TOMBSTONE_RETENTION_DAYS): Promise<number> {
  const [row] = await purge(db, [retentionDays])
  return row?.n ?? 0
}
