/**
 * A list endpoint's answer as JSON or, when asked for (negotiate.ts), as CSV. The CSV is made from
 * the JSON answer itself (computed, or from the response cache, which keeps the JSON only), so it
 * holds exactly what the JSON does, licensing included; its columns are src/csv/columns.ts, cut to
 * the fields named by fields=. The next page's URL goes in a Link header (RFC 8288) made from the
 * request's own query with the cursor replaced, on the service's public base URL.
 */
import { EncodedAnswer } from '../../../http/compression'
import { queryEntries } from '../../../http/percent-decoding'
import { CSV_COLUMNS, type CsvTable } from '../../../csv/columns'
import { csvLines } from '../../../csv/rows'
import { JsonText, cachedJson, type ResponseCache } from '../response-cache'
import { csvRequested } from './negotiate'

export const CSV_TYPE = 'text/csv; charset=utf-8'

type Page = { data: unknown[]; pagination: { next_cursor: string | null } }
type Set = { headers: Record<string, unknown> }

const encoder = new TextEncoder()
const decoder = new TextDecoder()

const varyOn = (current: unknown, value: string) =>
  typeof current === 'string' && current ? `${current}, ${value}` : value

/** The answer as an object, whichever form cachedJson gave it in. */
function readPage(answer: unknown): Page {
  if (answer instanceof Uint8Array) return JSON.parse(decoder.decode(answer)) as Page
  if (answer instanceof JsonText) return JSON.parse(answer.text) as Page
  return answer as Page
}

/** The columns left by fields= (dotted paths, already checked by the route): those at or under a named path. */
export function columnsFor(table: CsvTable, fields: string | null | undefined): readonly string[] {
  const columns = CSV_COLUMNS[table]
  if (!fields) return columns
  const named = fields.split(',')
  return columns.filter((column) => named.some((path) => column === path || column.startsWith(`${path}.`)))
}

/** The URL of the page after this one: the same path and query, the cursor replaced. */
export function nextPageUrl(baseUrl: string, requestUrl: string, cursor: string): string {
  const url = new URL(requestUrl)
  const query = url.search
    .slice(1)
    .split('&')
    .filter((part) => part !== '' && !/^cursor(=|$)/.test(part))
  return `${baseUrl}${url.pathname}?${[...query, `cursor=${encodeURIComponent(cursor)}`].join('&')}`
}

/**
 * The route's answer through the response cache as cachedJson gives it, or its CSV. Both vary on
 * Accept. Headers of the CSV are set only once the answer is computed: a failure stays a JSON envelope.
 */
export async function listAnswer<T>(
  v1: { cache: ResponseCache | null; baseUrl: string },
  table: CsvTable,
  request: Request,
  set: Set,
  compute: () => Promise<T>,
): Promise<T> {
  set.headers['vary'] = varyOn(set.headers['vary'], 'Accept')
  const csv = csvRequested(request)
  const answer = await cachedJson(v1.cache, request, set, compute)
  if (!csv) return answer
  const page = readPage(answer)
  const fields = queryEntries(request.url).find((e) => e.name === 'fields')?.value
  const body = encoder.encode(csvLines(page.data, columnsFor(table, fields), true))
  const next = page.pagination.next_cursor
  if (next) set.headers['link'] = `<${nextPageUrl(v1.baseUrl, request.url, next)}>; rel="next"`
  return new EncodedAnswer(body, CSV_TYPE) as unknown as T
}
