/**
 * The date filters of the site's search page: the names and grammar of /api/v1/search (src/modules/v1/papers), so a
 * reader's search and the API's read the same papers. since and until bound the day a paper entered the service
 * (indexed_date), published_since and published_until its publication date. A form sends its empty fields as empty
 * values: those filter nothing. The values are read with the other filters (./search-filters.ts).
 */
import { escapeXml as e } from './render'

const FIELDS = [
  ['published_since', 'Published from'],
  ['published_until', 'Published until'],
  ['since', 'Added from'],
  ['until', 'Added until'],
] as const
type Name = (typeof FIELDS)[number][0]

export type SearchDates = Partial<Record<Name, string>>

/** The form's date fields, holding the dates given. */
export function dateFields(d: SearchDates): string {
  return `<fieldset class="dates"><legend>Dates</legend>${FIELDS.map(
    ([name, label]) => `<label>${label} <input type="date" name="${name}" value="${e(d[name] ?? '')}"></label>`,
  ).join('')}</fieldset>`
}
