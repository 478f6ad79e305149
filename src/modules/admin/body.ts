/**
 * JSON request bodies of the admin interface, declared field by field like query parameters: each
 * field parses its value with a 400 invalid_parameter that names it, unknown fields are refused by
 * name, and the same declarations give the TypeBox schema the OpenAPI document shows. Parsing is
 * ours rather than Elysia's for the same reason as with query parameters: its validator neither
 * names unknown fields nor words messages per field.
 */
import { t, type TSchema } from 'elysia'
import { invalidParameter } from '../../http/errors'

export type Field<T> = { schema: TSchema; parse: (value: unknown, name: string) => T }
export type BodySpec = Record<string, Field<unknown>>
export type ParsedBody<S extends BodySpec> = { [K in keyof S]: ReturnType<S[K]['parse']> | undefined }

/**
 * The OpenAPI requestBody for a spec (every field optional, unknown ones refused), for a route's
 * `detail`: the route declares no `body` schema, so Elysia neither validates it nor documents it
 * as required and form-encoded too. Typed loosely, as the plugin's type is stricter than its JSON.
 */
export const jsonRequestBody = (spec: BodySpec, description: string) => ({
  required: false,
  description,
  content: {
    'application/json': {
      schema: t.Object(Object.fromEntries(Object.entries(spec).map(([name, f]) => [name, t.Optional(f.schema)])), { additionalProperties: false }),
    },
  },
}) as never

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x)

/**
 * The request's JSON body checked against a spec. An absent or empty body counts as {}; a body
 * sent as anything but JSON, or a JSON value that is not an object, is a 400.
 */
export function readBody<S extends BodySpec>(context: { body: unknown; request: Request }, spec: S): ParsedBody<S> {
  const type = context.request.headers.get('content-type') ?? ''
  const empty = context.body === undefined || context.body === null || context.body === ''
  if (!empty && !/^application\/json\b/i.test(type)) throw invalidParameter('send the request body as JSON (Content-Type: application/json)')
  return parseBody(context.body, spec)
}

/** An absent or empty body counts as {}; anything but a JSON object is a 400. */
export function parseBody<S extends BodySpec>(body: unknown, spec: S): ParsedBody<S> {
  if (body === undefined || body === null || body === '') return {} as ParsedBody<S>
  if (!isObject(body)) throw invalidParameter('the request body must be a JSON object (Content-Type: application/json)')
  const known = Object.keys(spec)
  const unknown = Object.keys(body).filter((k) => !known.includes(k))
  if (unknown.length > 0) {
    throw invalidParameter(`unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}; this endpoint takes ${known.join(', ') || 'no fields'}`)
  }
  const out: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(body)) {
    if (value === null) continue // null means "not given", as an absent field
    out[name] = spec[name]!.parse(value, name)
  }
  return out as ParsedBody<S>
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

export function dateField(description: string): Field<string> {
  return {
    schema: t.String({ format: 'date', description: `${description} (YYYY-MM-DD)` }),
    parse: (value, name) => {
      if (typeof value === 'string' && DATE.test(value) && !value.startsWith('0000')) {
        const d = new Date(`${value}T00:00:00Z`)
        if (!Number.isNaN(d.getTime()) && d.toISOString().startsWith(value)) return value
      }
      throw invalidParameter(`${name} must be a date as YYYY-MM-DD (got ${JSON.stringify(value)?.slice(0, 100)})`)
    },
  }
}

export function textField(description: string, maxLength: number): Field<string> {
  return {
    schema: t.String({ minLength: 1, maxLength, description }),
    parse: (value, name) => {
      if (typeof value !== 'string' || value.trim() === '') throw invalidParameter(`${name} must be a non-empty string`)
      if (value.length > maxLength) throw invalidParameter(`${name} must be at most ${maxLength} characters (got ${value.length})`)
      if (value.includes('\0')) throw invalidParameter(`${name} must not contain the NUL character`)
      return value.trim()
    },
  }
}

/**
 * A list of strings, each checked by `item` (which returns the value to keep or throws); duplicates
 * are dropped. `allowed` documents a closed vocabulary.
 */
export function listField(description: string, options: {
  maxItems: number; item: (value: string, name: string) => string; allowed?: readonly string[]; maxLength?: number
}): Field<string[]> {
  const itemSchema = options.allowed
    ? t.UnionEnum([...options.allowed] as [string, ...string[]], { default: undefined })
    : t.String({ minLength: 1, maxLength: options.maxLength ?? 200 })
  return {
    schema: t.Array(itemSchema, { maxItems: options.maxItems, description }),
    parse: (value, name) => {
      if (!Array.isArray(value)) throw invalidParameter(`${name} must be an array of strings`)
      if (value.length > options.maxItems) throw invalidParameter(`${name} may hold at most ${options.maxItems} items (got ${value.length})`)
      return [...new Set(value.map((v, i) => {
        if (typeof v !== 'string' || v.trim() === '') throw invalidParameter(`${name}[${i}] must be a non-empty string`)
        if (v.includes('\0')) throw invalidParameter(`${name}[${i}] must not contain the NUL character`)
        return options.item(v.trim(), `${name}[${i}]`)
      }))]
    },
  }
}

/** For endpoints that take no body: any field is refused by name. */
export async function noBody(request: Request): Promise<void> {
  const text = await request.text().catch(() => '')
  if (text.trim() === '') return
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw invalidParameter('this endpoint takes no request body')
  }
  parseBody(parsed, {})
}
