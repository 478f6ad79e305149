/**
 * The date filters of the site's search page: the names and grammar of /api/v1/search (src/modules/v1/papers), so a
 * reader's search and the API's read the same papers. since and until bound the day a paper entered the service
 * (indexed_date), published_since and published_until its publication date. A form sends its empty fields as empty
 * values: those filter nothing.
 */
import { dateParam } from '../../http/params'
import type { PaperFilters } from '../../queries/papers'
import { escapeXml as e } from './render'

const FIELDS = [
  ['published_since', 'Published from'], ['published_until', 'Published until'],
  ['since', 'Added from'], ['until', 'Added until'],
] as const
type Name = (typeof FIELDS)[number][0]

export type SearchDates = Partial<Record<Name, string>>

const date = dateParam('')

/** The dates in the page's URL; a malformed one is a 400 naming it, as on the API. */
export function searchDates(url: string): SearchDates {
  const params = new URL(url).searchParams
  const dates: SearchDates = {}
  for (const [name] of FIELDS) {
    const raw = params.get(name)
    if (raw !== null && raw.trim() !== '') dates[name] = date.parse(raw.trim(), name)
  }
  return dates
}

type DateFilters = Pick<PaperFilters, 'since' | 'until' | 'publishedSince' | 'publishedUntil'>

export const datesFilter = (d: SearchDates): DateFilters =>
  ({ since: d.since, until: d.until, publishedSince: d.published_since, publishedUntil: d.published_until })

/** The form's date fields, holding the dates given. */
export function dateFields(d: SearchDates): string {
  return `<fieldset class="dates"><legend>Dates</legend>${FIELDS.map(([name, label]) =>
    `<label>${label} <input type="date" name="${name}" value="${e(d[name] ?? '')}"></label>`).join('')}</fieldset>`
}
