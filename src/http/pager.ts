/**
 * The paging steps every list endpoint shares: read the cursor (bound to the endpoint and its
 * filters), ask the query for one row more than the page, and turn the last row served into the
 * next cursor. Endpoints supply only how a row's sort key is written into a cursor.
 */
import { decodeCursor, encodeCursor, type CursorPosition } from './cursor'

export const DEFAULT_LIMIT = 25

export type Pagination = { next_cursor: string | null; has_more: boolean; limit: number }

export function pager(
  secret: string,
  endpoint: string,
  filters: Record<string, unknown>,
  params: { cursor?: string; limit?: number },
) {
  const limit = params.limit ?? DEFAULT_LIMIT
  return {
    limit,
    /** The previous page's last position, or null on the first page. */
    after: params.cursor ? decodeCursor(secret, endpoint, filters, params.cursor) : null,
    /** Cuts the fetched rows (limit + 1 at most) to the page and builds its pagination. */
    page<Row>(rows: Row[], positionOf: (row: Row) => CursorPosition): { items: Row[]; pagination: Pagination } {
      const hasMore = rows.length > limit
      const items = hasMore ? rows.slice(0, limit) : rows
      const last = items.at(-1)
      const next = hasMore && last !== undefined ? encodeCursor(secret, endpoint, filters, positionOf(last)) : null
      return { items, pagination: { next_cursor: next, has_more: hasMore, limit } }
    },
  }
}
