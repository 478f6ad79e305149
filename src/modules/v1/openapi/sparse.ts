/**
 * The fields= answers in the OpenAPI document (src/modules/v1/sparse): for every GET operation that
 * takes fields=, an operation at the same path under /api/v1/sparse with fields= required, whose answer
 * schema is the operation's own with nothing required below `data` (named schemas get a Sparse twin:
 * SparsePaper, SparseJudgement, ...). The plain operation no longer lists fields=, so its answer schema
 * stays the strict one generated clients rely on; its description says where fields= went.
 */
import { SPARSE_PREFIX } from '../sparse'

type Json = any // eslint-disable-line @typescript-eslint/no-explicit-any -- the document is plain JSON walked by hand

const REF = '#/components/schemas/'

/** `schema` with no `required` anywhere inside it, named schemas replaced by their Sparse twins (made once each). */
function sparse(doc: Json, schema: Json): Json {
  if (Array.isArray(schema)) return schema.map((s) => sparse(doc, s))
  if (schema === null || typeof schema !== 'object') return schema
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith(REF)) {
    const name = schema.$ref.slice(REF.length)
    const twin = `Sparse${name}`
    const schemas = doc.components.schemas
    if (!schemas[twin]) {
      schemas[twin] = {} // taken before recursing, so a schema that refers to itself ends
      const made = sparse(doc, schemas[name])
      schemas[twin] = {
        ...made,
        description:
          `${name} as a fields= answer gives it: only the fields asked for (nested with dots), so none is ` +
          `required.`,
      }
    }
    return { $ref: `${REF}${twin}` }
  }
  const out: Json = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'required') continue
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as Json).map(([name, s]) => [name, sparse(doc, s)]))
        : sparse(doc, value)
  }
  return out
}

/** The envelope as it is (data, pagination and the rest are always there), its `data` made sparse. */
function sparseEnvelope(doc: Json, schema: Json): Json {
  const envelope = schema.$ref ? doc.components.schemas[schema.$ref.slice(REF.length)] : schema
  if (!envelope?.properties?.data) throw new Error('openapi: a fields= answer without data')
  return { ...envelope, properties: { ...envelope.properties, data: sparse(doc, envelope.properties.data) } }
}

export const FIELDS_MOVED =
  `fields= is documented at the same path under ${SPARSE_PREFIX}, whose answer schema has nothing required; ` +
  'this path answers it too, the same bytes.'

export function describeSparse(doc: Json): void {
  for (const [path, item] of Object.entries<Json>({ ...doc.paths })) {
    const operation = item.get
    const fields = operation?.parameters?.find((p: Json) => p.in === 'query' && p.name === 'fields')
    if (!fields || path.startsWith(`${SPARSE_PREFIX}/`)) continue
    const twin = structuredClone(operation)
    twin.summary = `${operation.summary}, only the fields asked for`
    twin.description =
      `The answer of GET ${path} with fields=: each item keeps only the fields named (see fields), so no field of an ` +
      `item is required in this answer's schema; the rest of the envelope is as there. GET ${path}?fields=… answers ` +
      `the same bytes.`
    if (twin.operationId) twin.operationId = `${twin.operationId}Sparse`
    twin.parameters = twin.parameters.map((p: Json) =>
      p === fields || (p.in === 'query' && p.name === 'fields') ? { ...p, required: true } : p,
    )
    const json = twin.responses['200'].content['application/json']
    json.schema = sparseEnvelope(doc, json.schema)
    doc.paths[`${SPARSE_PREFIX}${path.slice('/api/v1'.length)}`] = { get: twin }
    operation.parameters = operation.parameters.filter((p: Json) => p !== fields)
    if (!String(operation.description ?? '').includes('/api/v1/sparse'))
      operation.description = `${operation.description ?? ''} ${FIELDS_MOVED}`.trim()
  }
}

/**
 * 304 Not Modified on every GET answer that has a 200 (src/http/compression.ts gives each one a weak ETag
 * and answers If-None-Match), with the headers such an answer carries.
 */
export function describeNotModified(doc: Json, headersFor: (status: string) => string[]): void {
  doc.components.headers.WeakETag = {
    description:
      'A weak validator of this answer (W/"…"): send it back in If-None-Match to get a 304 while the answer is ' +
      'unchanged.',
    schema: { type: 'string' },
  }
  for (const item of Object.values<Json>(doc.paths)) {
    const operation = item.get
    if (!operation?.responses?.['200'] || operation.responses['304']) continue
    const ok = operation.responses['200']
    ok.headers = { ...ok.headers, ETag: { $ref: '#/components/headers/WeakETag' } }
    operation.responses = {
      '200': ok,
      '304': {
        description: "Not modified: If-None-Match holds this answer's ETag. No body.",
        headers: {
          ...Object.fromEntries(headersFor('304').map((h) => [h, { $ref: `#/components/headers/${h}` }])),
          ETag: { $ref: '#/components/headers/WeakETag' },
        },
      },
      ...operation.responses,
    }
  }
}
