/**
 * A list answer whose items PostgreSQL wrote as JSON (src/resources/papers/paper-json.ts): `{"data":[...]`
 * then the rest of the envelope (pagination, facets) as JSON.stringify writes it, keys in the
 * order given — the same bytes as JSON.stringify({ data, ...rest }) of the parsed items.
 */
import { JsonText } from './response-cache'

export function jsonPage(items: string[], rest: { pagination: object }): JsonText {
  return new JsonText(`{"data":[${items.join(',')}],${JSON.stringify(rest).slice(1)}`)
}
