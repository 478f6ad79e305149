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

/** The rows a filtered page's first window reads. */
export const PAGE_WINDOW = 1_000
/** The rows a second window reads (for a filter dear to test, only when the first's matches project a page within it). */
export const LONG_WINDOW = 20_000

/** The newest `n` rows (fewer at the end of the range): see above. `rangeRows(cap)` counts the range's rows, up to `cap`. */
export async function windowedPage<Row>(
  n: number, window: (rows: number) => Promise<Row[]>, sorted: () => Promise<Row[]>,
  { dearTest, rangeRows }: { dearTest: boolean; rangeRows: (cap: number) => Promise<number> },
): Promise<Row[]> {
  const first = await window(PAGE_WINDOW)
  if (first.length >= n) return first
  // A window that read the whole range (the rest of a day, say, on a later page) holds every match in it.
  if (await rangeRows(PAGE_WINDOW + 1) <= PAGE_WINDOW) return first
  if (!dearTest || first.length * (LONG_WINDOW / PAGE_WINDOW) >= n) {
    const longer = await window(LONG_WINDOW)
    if (longer.length >= n || await rangeRows(LONG_WINDOW + 1) <= LONG_WINDOW) return longer
  }
  return sorted()
}
