/**
 * Turns what @elysiajs/openapi generates from the routes into the document clients need:
 * - no `noValidate` keys (our marker for responses checked by the contract tests rather than on every
 *   answer; it is not JSON Schema, and linters reject it);
 * - each route's own `detail.parameters` (the plugin replaces them with bare path parameters on
 *   routes that have any, which loses the query parameters of /entities/{type}/{key});
 * - named component schemas (`Paper`, `Claim`, ...) in place of the same schema written out inline,
 *   so generated clients get named types; named by where they first appear, see `NamedAt`;
 * - a tag per area, and the response headers every answer carries.
 * The plugin's own route serves the raw document; `documentRoute` serves the finished one.
 */
import { toOpenAPISchema } from '@elysiajs/openapi'
import { Elysia, type AnyElysia } from 'elysia'

type Json = any // eslint-disable-line @typescript-eslint/no-explicit-any -- the document is plain JSON walked by hand

/** A component named by the schema at a path into the document, e.g. ['/api/v1/papers', 'get', '200', 'data', '[]']. */
export type NamedAt = { name: string; at: string[] }

export type DocumentOptions = {
  specPath: string
  exclude: { paths: (string | RegExp)[] }
  documentation: Json
  names: NamedAt[]
  tagOf: (path: string) => string
  tags: { name: string; description: string }[]
  headersFor: (status: string) => string[] // names of components.headers to put on a response of this status
  headers: Record<string, Json>
  finish?: (doc: Json) => void // last touches an interface needs (paths the generator cannot write)
}

function stripNoValidate(node: Json): Json {
  if (Array.isArray(node)) return node.map(stripNoValidate)
  if (node === null || typeof node !== 'object') return node
  const out: Json = {}
  for (const [key, value] of Object.entries(node)) if (key !== 'noValidate') out[key] = stripNoValidate(value)
  return out
}

/** Follows `at` from an operation's response schema: '[]' steps into items, a name into properties. */
function schemaAt(doc: Json, at: string[]): Json {
  const [path, method, status, ...steps] = at
  let node = doc.paths[path]?.[method]?.responses?.[status]?.content?.['application/json']?.schema
  for (const step of steps) {
    if (!node) break
    if (node.anyOf) node = node.anyOf.find((s: Json) => s.type !== 'null') // a nullable object: the object
    node = step === '[]' ? node.items : node.properties?.[step]
  }
  if (node?.anyOf) node = node.anyOf.find((s: Json) => s.type !== 'null')
  if (!node) throw new Error(`openapi: nothing at ${at.join(' ')}`)
  return node
}

const canonical = (node: Json): string =>
  JSON.stringify(node, (_key, value) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  )

/** Replaces, everywhere below `node` (not `node` itself), a schema equal to `target` by `ref`. */
function replaceEqual(node: Json, target: string, ref: Json): void {
  if (node === null || typeof node !== 'object') return
  for (const [key, value] of Object.entries(node)) {
    if (value && typeof value === 'object' && !Array.isArray(value) && canonical(value) === target)
      (node as Json)[key] = { ...ref }
    else replaceEqual(value, target, ref)
  }
}

function nameSchemas(doc: Json, names: NamedAt[]): void {
  const schemas: Record<string, Json> = (doc.components.schemas ??= {})
  const found = names.map(({ name, at }) => ({ name, schema: structuredClone(schemaAt(doc, at)) }))
  // Innermost first: each replacement is made in the paths and in the schemas named so far alike, so
  // an outer schema still equals its inline copies when its turn comes.
  found.sort((a, b) => canonical(a.schema).length - canonical(b.schema).length)
  const pending = new Map(found.map((f) => [f.name, f.schema]))
  for (const { name } of found) {
    const schema = pending.get(name)!
    pending.delete(name)
    const target = canonical(schema)
    const named = { $ref: `#/components/schemas/${name}` }
    // A schema that admits null (type: ['object', 'null']) is named without null and referred to as
    // "it or null", so clients get `Judgement | null` rather than a Judgement that may be null.
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : null
    const nullable = types?.includes('null') ?? false
    if (types && nullable) {
      const rest = types.filter((t) => t !== 'null')
      schema.type = rest.length === 1 ? rest[0] : rest
    }
    const ref = nullable ? { anyOf: [named, { type: 'null' }] } : named
    replaceEqual(doc.paths, target, ref)
    for (const other of pending.values()) replaceEqual(other, target, ref)
    for (const [done, s] of Object.entries(schemas)) if (done !== name) replaceEqual(s, target, ref)
    schemas[name] = schema
  }
}

export function finishDocument(app: AnyElysia, o: DocumentOptions): Json {
  const generated = toOpenAPISchema(app, o.exclude, undefined, undefined, '3.1.0') as Json
  const doc: Json = stripNoValidate({
    ...o.documentation,
    openapi: '3.1.0',
    tags: o.tags,
    paths: generated.paths,
    components: { ...o.documentation.components, schemas: { ...generated.components?.schemas }, headers: o.headers },
  })
  for (const route of app.routes) {
    const declared = (route.hooks as Json)?.detail?.parameters
    const path = route.path.replace(/:(\w+)/g, '{$1}').replace(/:\*$/, '{*}') // a wildcard as the generator writes it
    const operation = doc.paths[path]?.[route.method.toLowerCase()]
    if (operation && Array.isArray(declared) && declared.length > 0) operation.parameters = declared
  }
  for (const [path, methods] of Object.entries<Json>(doc.paths)) {
    for (const operation of Object.values<Json>(methods)) {
      operation.tags ??= [o.tagOf(path)]
      for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
        const names = o.headersFor(status)
        if (names.length > 0)
          response.headers = Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]))
      }
    }
  }
  nameSchemas(doc, o.names)
  o.finish?.(doc)
  return doc
}

/** GET specPath: the finished document of `app()` (the whole application), made once on first request. */
export function documentRoute(app: () => AnyElysia, options: DocumentOptions) {
  let cached: Json = null
  return new Elysia({ name: `openapi-document:${options.specPath}` }).get(
    options.specPath,
    () => (cached ??= finishDocument(app(), options)),
    { detail: { hide: true } },
  )
}
