/**
 * A filtered page of a list read newest first from one index (/papers, /stories, their `fields=` pages), whatever
 * the filter. Walking the index and testing each row is right when the filter passes many rows and
 * ruinous when it passes few: planned without its values (a generic plan, as the hot pages are),
 * `/papers?q=` with a word no paper holds walked all million papers (4.7 s), and topic, study type,
 * preprint and min_relevance together 0.65 s.
 *
 * So the page reads a window of the newest PAGE_WINDOW rows of its range first, planned once; when
 * they hold a page, that is the page, and so it is when they were the whole range (counted: on a later
 * page the range can be the rest of one day). If not, a window of LONG_WINDOW rows: for a filter cheap to test
 * always (the first window can miss what a longer one finds: within a day ids put every MED- paper
 * before the first PPR- one, so a thousand papers of one day may hold no preprint), for a dear one
 * (a text query reads each paper's vector; a story's filter joins its paper) only when the first window's
 * matches project a page in it.
 * When no window holds a page, the filter is rare in this range: the page is every row it passes,
 * read from whichever index suits the values and sorted (`sorted`, planned for its values, by an
 * expression no index gives so that no plan walks instead). Either way the page is the same: a window
 * holds the newest rows of the range, so its newest matches are the range's whenever it holds a page
 * of them.
 */

import type { Db } from '../db/client'
import { statementFamily, statementFamilyOf, type Conditions } from './prepared'

/** The rows a filtered page's first window reads. */
export const PAGE_WINDOW = 1_000
/**
 * The rows a second window reads (for a filter dear to test, only when the first's matches project a page within it).
 */
export const LONG_WINDOW = 20_000

/**
 * The newest `n` rows (fewer at the end of the range): see above. `rangeRows(cap)` counts the range's rows, up to
 * `cap`.
 */
export async function windowedPage<Row>(
  n: number,
  window: (rows: number) => Promise<Row[]>,
  sorted: () => Promise<Row[]>,
  { dearTest, rangeRows }: { dearTest: boolean; rangeRows: (cap: number) => Promise<number> },
): Promise<Row[]> {
  const first = await window(PAGE_WINDOW)
  if (first.length >= n) return first
  // A window that read the whole range (the rest of a day, say, on a later page) holds every match in it.
  if ((await rangeRows(PAGE_WINDOW + 1)) <= PAGE_WINDOW) return first
  if (!dearTest || first.length * (LONG_WINDOW / PAGE_WINDOW) >= n) {
    const longer = await window(LONG_WINDOW)
    if (longer.length >= n || (await rangeRows(LONG_WINDOW + 1)) <= LONG_WINDOW) return longer
  }
  return sorted()
}

/**
 * How a list's pages are read: `rowsFrom(source)` selects a page's rows from `source` (the table, or a window
 * of it) aliased `alias`, and joins what they need; `newest` is the list's order, `sorted` the same order
 * by an expression no index gives.
 */
export type WindowedList = {
  rowsFrom: (source: string) => string
  table: string
  alias: string
  newest: string
  sorted: string
}

/**
 * What a page asks: its range (made afresh by each call), the filter's other conditions, and both written for a page
 * planned for its values.
 */
export type WindowedRequest = {
  range: () => Conditions
  filtered: Conditions
  sortedWhere: () => Conditions
  dearTest: boolean
}

/**
 * A list's page statements: the walk of a range when nothing filters it, planned once; the windows, planned
 * once, with the range given twice, inside and out (a date the range fixes, the rest of a day on a later
 * page, leaves the window ordered by the second key alone, and only a query that knows the date fixed takes
 * that order as the page's: otherwise every row of the window was read and sorted, 10 ms a page at a million
 * papers); the sorted page, planned for its values; and the range's count.
 */
export function windowedList<Row>({ rowsFrom, table, alias, newest, sorted }: WindowedList) {
  const walk = statementFamily<Row>(
    (range) => `${rowsFrom(table)}
where ${range}
${newest} limit $limit`,
    { genericPlan: true },
  )
  const windows = new Map(
    [PAGE_WINDOW, LONG_WINDOW].map((rows) => [
      rows,
      statementFamilyOf<Row>(
        (range, filters, rangeAgain) =>
          `${rowsFrom(`(select * from ${table} ${alias} where ${range} ${newest} limit ${rows})`)}
where ${filters} and ${rangeAgain}
${newest} limit $limit`,
        { genericPlan: true },
      ),
    ]),
  )
  const sortedPage = statementFamily<Row>(
    (where) => `${rowsFrom(table)}
where ${where}
${sorted} limit $limit`,
    { customPlan: true },
  )
  const rangeRows = statementFamily<{ n: number }>(
    (range) => `select count(*)::int as n from (select 1 from ${table} ${alias} where ${range} limit $limit) r`,
    { genericPlan: true },
  )
  /** The rows in `range`, counted up to `cap`. */
  const countRange = async (db: Db, range: () => Conditions, cap: number) =>
    (await rangeRows(db, [], range(), [cap]))[0].n
  return {
    countRange,
    /**
     * The newest `n` rows of the range that pass the filter; `leading` are the values written before the range (the
     * rows' own).
     */
    read: (db: Db, leading: unknown[], request: WindowedRequest, n: number): Promise<Row[]> => {
      const { range, filtered, sortedWhere, dearTest } = request
      if (filtered.fragments.length === 0) return walk(db, leading, range(), [n])
      return windowedPage(
        n,
        (rows) => windows.get(rows)!(db, [range(), filtered, range()], [n], leading),
        () => sortedPage(db, leading, sortedWhere(), [n]),
        { dearTest, rangeRows: (cap) => countRange(db, range, cap) },
      )
    },
  }
}
