/**
 * Items of the Data API (its JSON objects, licensing already applied by their serializers) as CSV
 * text through csv-stringify: one row per item, the columns of src/csv/columns.ts. Working from
 * the JSON item rather than from database rows means a CSV cell can hold only what the JSON
 * answer holds: an abstract withheld there is an empty cell here.
 */
import { stringify } from 'csv-stringify/sync'

/** The value at a dotted path ("judgement.topic"); undefined when an object on the way is null or absent. */
export function valueAt(item: unknown, path: string): unknown {
  let value: unknown = item
  for (const step of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[step]
  }
  return value
}

/** One cell (src/csv/columns.ts CELL_RULES). */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join('; ')
  return JSON.stringify(value)
}

/**
 * `items` as CSV lines under `columns`, RFC 4180 style (CRLF, fields quoted when they must be),
 * with the header line first when `header` is true (an empty list is then the header alone).
 */
export function csvLines(items: readonly unknown[], columns: readonly string[], header: boolean): string {
  const records = items.map((item) => columns.map((column) => cell(valueAt(item, column))))
  if (header) records.unshift([...columns])
  return stringify(records, { record_delimiter: 'windows' })
}
