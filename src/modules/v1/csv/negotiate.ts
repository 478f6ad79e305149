/**
 * Whether a list request asks for CSV: format=csv, or (without format) an Accept header that names
 * text/csv and prefers it to application/json (negotiator reads the q-values). Anything else, an
 * Accept of any type and no Accept included, is JSON as it always was. Read from the raw query here
 * because the route parses its parameters inside the cached computation, which CSV shares with JSON.
 */
import Negotiator from 'negotiator'
import { invalidParameter } from '../../../http/errors'
import { queryEntries } from '../../../http/percent-decoding'
import { NOT_A_LIST } from './format-param'

/** Parameters (given, with these values) whose answer is not a flat list of items. */
function listsNothingFlat(query: Map<string | null, string | null>): string | null {
  for (const name of ['ids', 'updated_since', 'group_by']) if (query.has(name)) return name
  return query.get('count') === 'true' ? 'count=true' : null
}

export function csvRequested(request: Request): boolean {
  const query = new Map(queryEntries(request.url).map((e) => [e.name, e.value]))
  const format = query.get('format')
  const clash = listsNothingFlat(query)
  if (format === 'csv') {
    if (clash) {
      const why = `CSV is for plain lists, not for ${NOT_A_LIST}`
      throw invalidParameter(`format=csv cannot be combined with ${clash}: ${why}`)
    }
    return true
  }
  if (format !== undefined || clash) return false // format=json, or a value the route refuses, or a non-list answer
  const accept = request.headers.get('accept')
  if (!accept || !/\btext\/csv\b/i.test(accept)) return false
  return new Negotiator({ headers: { accept } }).mediaType(['application/json', 'text/csv']) === 'text/csv'
}
