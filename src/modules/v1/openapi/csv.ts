/**
 * The CSV answers of the list endpoints (src/modules/v1/csv) in the OpenAPI document: a text/csv
 * content beside application/json on each 200, whose description lists the columns in order with
 * the JSON type of each (read from the item's own named schema, so the two cannot disagree), and
 * the Link header that carries the next page.
 */
import { CELL_RULES, CSV_COLUMNS, type CsvTable } from '../../../csv/columns'

type Json = any // eslint-disable-line @typescript-eslint/no-explicit-any -- the document is plain JSON walked by hand

/** Each CSV list: its path and the named schema of its items. */
export const CSV_LISTS: Record<CsvTable, { path: string; item: string }> = {
  papers: { path: '/api/v1/papers', item: 'Paper' },
  search: { path: '/api/v1/search', item: 'SearchHit' },
  stories: { path: '/api/v1/stories', item: 'StoryItem' },
  claims: { path: '/api/v1/claims', item: 'ClaimItem' },
  entities: { path: '/api/v1/entities', item: 'Entity' },
}

/** The named schema a $ref points at, or the schema itself. */
const resolved = (doc: Json, node: Json): Json =>
  node?.$ref ? resolved(doc, doc.components.schemas[String(node.$ref).split('/').pop()!]) : node

/** How a JSON type reads in a column's description. */
function typeName(doc: Json, type: string, schema: Json): string {
  if (type === 'array') return `list of ${resolved(doc, schema.items)?.type ?? 'value'}`
  return type === 'object' ? 'JSON object' : type
}

/**
 * The schema at a dotted path below `schema`, through $refs and nullable unions, and whether an
 * object on the way may be null (the column is then empty for it); null when there is no such field.
 */
export function schemaAtPath(doc: Json, schema: Json, path: string): { schema: Json; underNull: boolean } | null {
  const resolve = (node: Json): Json => resolved(doc, node)
  let node = resolve(schema)
  let underNull = false
  for (const step of path.split('.')) {
    if (node?.anyOf?.some((s: Json) => s.type === 'null')) underNull = true
    const inner = node?.anyOf ? node.anyOf.map(resolve).find((s: Json) => s?.properties) : node
    node = inner?.properties?.[step] ? resolve(inner.properties[step]) : null
    if (!node) return null
  }
  return { schema: node, underNull }
}

/** A column's type as the JSON gives it: "string or null", "number", "list of string", ... */
function typeOf(doc: Json, schema: Json): string {
  const members: Json[] = schema.anyOf ? schema.anyOf.map((m: Json) => resolved(doc, m)) : [schema]
  const names = new Set<string>()
  for (const m of members) {
    const given = m.type ?? (m.const !== undefined ? typeof m.const : 'string')
    const types: string[] = Array.isArray(given) ? given : [given]
    for (const type of types) names.add(typeName(doc, type, m))
  }
  const list = [...names]
  const nullable = list.includes('null')
  const rest = list.filter((n) => n !== 'null').join(' or ')
  return nullable ? `${rest} or null` : rest
}

export function describeCsv(doc: Json): void {
  doc.components.headers = {
    ...doc.components.headers,
    Link: {
      description: 'On a CSV page that has a next one: <URL of the next page>; rel="next" (RFC 8288).',
      schema: { type: 'string' },
    },
  }
  for (const [table, { path, item }] of Object.entries(CSV_LISTS) as [CsvTable, { path: string; item: string }][]) {
    const ok = doc.paths?.[path]?.get?.responses?.['200']
    if (!ok) continue
    const columns = CSV_COLUMNS[table].map((column) => {
      const found = schemaAtPath(doc, { $ref: `#/components/schemas/${item}` }, column)
      if (!found) throw new Error(`openapi: CSV column ${column} is not a field of ${item}`)
      const type = typeOf(doc, found.schema)
      return `${column} (${found.underNull && !type.endsWith(' or null') ? `${type} or null` : type})`
    })
    ok.content['text/csv'] = {
      schema: {
        type: 'string',
        description:
          `With format=csv or Accept: text/csv: a header line, then one line per ${item} (RFC 4180, ` +
          `CRLF). Columns, in order (fields= keeps those of the fields named): ${columns.join(', ')}. ${CELL_RULES} ` +
          'A value that is null in JSON is empty here, the licensing of abstracts and evidence included.',
      },
    }
    ok.headers = { ...ok.headers, Link: { $ref: '#/components/headers/Link' } }
  }
}
