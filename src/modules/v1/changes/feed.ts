/**
 * The change feed behind updated_since on /papers, /stories and /claims and behind GET
 * /api/v1/changes: the parameter, the cursor, and the page with its resume_cursor. The reading
 * itself, and why it never misses a change, is in src/resources/changes/queries.ts.
 */
import { invalidParameter, quoted } from '../../../http/errors'
import type { Param } from '../../../http/params'
import { decodeCursor, encodeCursor } from '../../../http/cursor'
import {
  CURSOR_LIFETIME_DAYS,
  TOMBSTONE_RETENTION_DAYS,
  feedHorizon,
  feedStart,
  laterPosition,
  type FeedPosition,
  type FeedResource,
  type FeedRowBase,
  type FeedWindow,
} from '../../../resources/changes/queries'
import type { Db } from '../../../db/client'

const DAY_MS = 86_400_000

// Years 0001-9999 as in dateParam; a timestamp must say its zone (Z or an offset), else it would mean the server's.
const DATE = /^(?!0000)\d{4}-\d{2}-\d{2}$/
const TIMESTAMP = /^(?!0000)(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/

/** The same day back from Date (which rolls 2026-02-31 into March): a real calendar day. */
const realDay = (day: string) => {
  const d = new Date(`${day}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(day)
}

/** updated_since's grammar as a JSON Schema pattern (the calendar and the clock are the parser's to check). */
export const FEED_TIME_PATTERN =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,6})?)?(Z|[+-][0-9]{2}:?[0-9]{2}))?$'

export const FEED_DOC =
  `Changes are ordered by the transaction that made them, then in the order written; this follows the time of ` +
  `change, ` +
  `but changes of overlapping transactions may interleave. A change is only handed out once every transaction that ` +
  `began before it has ` +
  `ended, so a change that commits late is never skipped: follow next_cursor, then keep resume_cursor and call again ` +
  `later with it (and ` +
  `the same parameters) to get what changed since, exactly. Each item appears once per page walk at its latest ` +
  `change, in its current ` +
  `state. Items deleted (or, under the request's filters, no longer listed) come as tombstones { id, deleted: true, ` +
  `reason, changed_at }. ` +
  `Tombstones are kept ${TOMBSTONE_RETENTION_DAYS} days and a cursor is usable for ${CURSOR_LIFETIME_DAYS} days; an ` +
  `older cursor is a 400 ` +
  `invalid_parameter whose message says it expired: start again from a fresh copy (updated_since far in the past ` +
  `gives every item).`

export const updatedSinceParam: Param<string> = {
  description:
    'A change feed instead of the usual list: only items changed at or after this time (a string: an ISO 8601 ' +
    'timestamp YYYY-MM-DDThh:mm[:ss[.ffffff]] with Z or an offset ±hh:mm, up to microseconds; a bare YYYY-MM-DD ' +
    'means 00:00 UTC), every change counted (new, edited, re-judged, re-extracted, ' +
    `story written or taken down, deleted). The list's other filters apply to each changed item's current state (an ` +
    `item that ` +
    'no longer matches them comes as a tombstone with reason excluded; the default min_relevance=2 of /papers ' +
    'applies too); q, ids, ' +
    `fields, count and group_by cannot be combined with it. ${FEED_DOC}`,
  // A string with a pattern, not an anyOf of formats, so generated clients type it as a string.
  schema: { type: 'string', pattern: FEED_TIME_PATTERN, examples: ['2026-11-01T00:00:00Z', '2026-11-01'] },
  parse: (raw, name) => {
    const timestamp = TIMESTAMP.exec(raw)
    if (DATE.test(raw) && realDay(raw)) return `${raw}T00:00:00Z`
    if (timestamp && realDay(timestamp[1]!) && !Number.isNaN(new Date(raw.replace(/(\.\d{3})\d+/, '$1')).getTime())) {
      const [, hh, mm, ss] = /T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(raw)!.map(Number)
      if (hh! < 24 && mm! < 60 && (ss ?? 0) < 60) return raw
    }
    throw invalidParameter(
      `${name} must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-01T00:00:00Z, or a date YYYY-MM-DD ` +
        `(got ${quoted(raw)})`,
    )
  },
}

/** Parameters that make no sense on a feed (they page, count or reshape a different list). */
export function refuseWithFeed(given: Record<string, unknown>, names: string[]): void {
  const clash = names.filter((n) => given[n] !== undefined)
  if (clash.length) throw invalidParameter(`updated_since cannot be combined with ${clash.join(', ')}`)
}

/** A cursor of the feed: the position, and when it was issued (for its lifetime). */
type FeedCursor = { position: FeedPosition; issuedAt: number }

function readCursor(
  secret: string,
  endpoint: string,
  filters: Record<string, unknown>,
  cursor: string,
  now: number,
): FeedCursor {
  const k = decodeCursor(secret, endpoint, filters, cursor)
  const [txid, seq, issuedAt] = k
  if (
    k.length !== 3 ||
    typeof txid !== 'string' ||
    !/^\d{1,20}$/.test(txid) ||
    typeof seq !== 'string' ||
    !/^\d{1,20}$/.test(seq) ||
    typeof issuedAt !== 'number' ||
    BigInt(txid) >= 2n ** 64n ||
    BigInt(seq) >= 2n ** 63n
  ) {
    // xid8 and bigint ranges
    throw invalidParameter('cursor is not a cursor this API issued')
  }
  if (now - issuedAt > CURSOR_LIFETIME_DAYS * DAY_MS) {
    throw invalidParameter(
      `cursor expired: change-feed cursors are usable for ${CURSOR_LIFETIME_DAYS} days (this one was issued ` +
        `${new Date(issuedAt).toISOString()}) and tombstones are kept ${TOMBSTONE_RETENTION_DAYS}; deletions since ` +
        `may be gone, so start ` +
        'again from a fresh copy',
    )
  }
  return { position: { txid, seq }, issuedAt }
}

export type FeedPaging = {
  /** What the page reads: the horizon, the position after which, updated_since and the limit. */
  window: FeedWindow
  /** The page's items (rows cut to the limit) and its pagination. */
  page<Row extends FeedRowBase>(
    rows: Row[],
  ): {
    items: Row[]
    pagination: { next_cursor: string | null; has_more: boolean; limit: number; resume_cursor: string }
  }
}

/**
 * The paging of one feed request: where it starts (the cursor's position, else the start of
 * updated_since), the horizon below which it reads (a statement of its own, before the page's:
 * see src/resources/changes/queries.ts), and how a page's rows become next_cursor and resume_cursor.
 * `filters` includes updated_since, so a cursor is bound to it like any other filter.
 */
export async function feedPaging(
  db: Db,
  secret: string,
  endpoint: string,
  resources: readonly FeedResource[],
  filters: Record<string, unknown> & { updatedSince: string },
  p: { cursor?: string; limit?: number },
  now = Date.now(),
): Promise<FeedPaging> {
  const limit = p.limit ?? 25
  const after = p.cursor
    ? readCursor(secret, endpoint, filters, p.cursor, now).position
    : await feedStart(db, resources, filters.updatedSince)
  const horizon = await feedHorizon(db)
  const cursorAt = (position: FeedPosition) =>
    encodeCursor(secret, endpoint, filters, [position.txid, position.seq, now])
  return {
    window: { horizon, after, updatedSince: filters.updatedSince, limit },
    page(rows) {
      const hasMore = rows.length > limit
      const items = rows.slice(0, limit)
      const last = items.at(-1)
      const lastPosition = last ? { txid: last.txid, seq: last.seq } : after
      const next = hasMore ? cursorAt(lastPosition) : null
      // The last page has seen everything below the horizon: resume from there, never behind where this page
      // ended (a lagging replica may answer a later request with a lower horizon).
      const resume = next ?? cursorAt(laterPosition({ txid: horizon, seq: '0' }, lastPosition))
      return { items, pagination: { next_cursor: next, has_more: hasMore, limit, resume_cursor: resume } }
    },
  }
}
