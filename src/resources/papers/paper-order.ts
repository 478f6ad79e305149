/**
 * The orders a list of papers can be read in (`sort` on /api/v1/papers): newest indexed first (the
 * default), newest published first, most newsworthy first; each then by id, so equal keys still page
 * in one stable order. Each key is one expression an index of drizzle/0032 holds in the same order
 * (papers without a publication date or a newsworthiness last), so a page is a range of that index,
 * read in two ranges after a position as src/queries/keyset.ts explains. The expressions must stay
 * as src/db/schema.ts indexes them, or the planner cannot match them.
 */
import { Conditions } from '../../queries/prepared'

export const PAPER_SORTS = ['indexed_date', 'published_date', 'newsworthiness'] as const
export type PaperSort = (typeof PAPER_SORTS)[number]
export const DEFAULT_PAPER_SORT: PaperSort = 'indexed_date'

/** The last row of a page in an order: its key (text for dates, a number for newsworthiness) and id. */
export type PaperPosition = { key: string | number; id: string }

export type PaperOrder = {
  /** The sort key over `p` (papers). */
  key: string
  /** The key's type, for a position's value. */
  cast: 'date' | 'float8'
  /** The order, and the same order by an expression no index gives (a page planned for its values sorts). */
  newest: string
  sorted: string
  /** A row's key as a cursor holds it, from the row's own columns. */
  keyOf: (row: { indexedDate: string; publishedDate: string | null; newsworthiness: number | null }) => string | number
}

/** What a paper without a publication date or a newsworthiness sorts as: below every real value. */
const NO_DATE = `'-infinity'::date`
const NO_NEWSWORTHINESS = '-1'

const PUBLISHED = `coalesce(p.published_date, ${NO_DATE})`
const NEWSWORTHINESS = `coalesce(p.newsworthiness, ${NO_NEWSWORTHINESS})`

export const PAPER_ORDERS: Record<PaperSort, PaperOrder> = {
  indexed_date: {
    key: 'p.indexed_date',
    cast: 'date',
    newest: 'order by p.indexed_date desc, p.id asc',
    sorted: 'order by p.indexed_date + 0 desc, p.id asc',
    keyOf: (r) => r.indexedDate,
  },
  published_date: {
    key: PUBLISHED,
    cast: 'date',
    newest: `order by ${PUBLISHED} desc, p.id asc`,
    sorted: `order by ${PUBLISHED} + 0 desc, p.id asc`,
    keyOf: (r) => r.publishedDate ?? '-infinity',
  },
  newsworthiness: {
    key: NEWSWORTHINESS,
    cast: 'float8',
    newest: `order by ${NEWSWORTHINESS} desc, p.id asc`,
    sorted: `order by ${NEWSWORTHINESS} + 0 desc, p.id asc`,
    keyOf: (r) => r.newsworthiness ?? Number(NO_NEWSWORTHINESS),
  },
}

/** The rest of the rows tied on the position's key (id after it), then the rows below its key. */
export function positionRanges(order: PaperOrder, after: PaperPosition): [() => Conditions, () => Conditions] {
  const key = String(after.key)
  return [
    () => new Conditions().add(`${order.key} = $?::${order.cast}`, key).add('p.id > $?', after.id),
    () => new Conditions().add(`${order.key} < $?::${order.cast}`, key),
  ]
}

/** A cursor's position read back in `order`; null when it cannot be one (the caller refuses the cursor). */
export function readPosition(sort: PaperSort, [key, id]: (string | number)[]): PaperPosition | null {
  if (typeof id !== 'string') return null
  if (PAPER_ORDERS[sort].cast === 'float8') return typeof key === 'number' && Number.isFinite(key) ? { key, id } : null
  return typeof key === 'string' && (/^\d{4}-\d{2}-\d{2}$/.test(key) || key === '-infinity') ? { key, id } : null
}
