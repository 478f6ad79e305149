/**
 * JSON request bodies, declared once per endpoint: each field both parses its value (a 400
 * invalid_parameter naming the field and what is wrong) and describes itself for the OpenAPI
 * document. Ours rather than Elysia's validator because the contract wants unknown fields refused
 * by name (Elysia's normalising validator drops them silently) and every message to name its field,
 * in the order the auth checks expect: the gate has already run when a body is parsed. Every admin
 * area declares its body here, so one set of rules and messages holds across the interface.
 */
import { invalidParameter } from './errors'

type JsonSchema = Record<string, unknown>

export type Field<T> = {
  description: string
  schema: JsonSchema
  parse: (value: unknown, name: string) => T
  optional?: boolean
}

export type BodySpec = Record<string, Field<unknown>>
export type ParsedBody<S extends BodySpec> = {
  [K in keyof S]: S[K] extends { optional: true } ? ReturnType<S[K]['parse']> | undefined : ReturnType<S[K]['parse']>
}

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value)

export type StringRules = { min?: number; max: number; pattern?: RegExp; patternRule?: string; example?: string }

/** Text without NUL (PostgreSQL cannot store it) and within bounds; leading and trailing space is kept. */
export function stringField(description: string, rules: StringRules): Field<string> {
  const min = rules.min ?? 1
  return {
    description,
    schema: {
      type: 'string',
      minLength: min,
      maxLength: rules.max,
      ...(rules.pattern ? { pattern: rules.pattern.source } : {}),
      ...(rules.example ? { examples: [rules.example] } : {}),
    },
    parse: (value, name) => {
      if (typeof value !== 'string') throw invalidParameter(`${name} must be a string (got ${typeOf(value)})`)
      if (value.includes('\0')) throw invalidParameter(`${name} must not contain the NUL character (\\u0000)`)
      if (value.trim().length < min)
        throw invalidParameter(
          min === 1 ? `${name} must not be empty` : `${name} must be at least ${min} characters long`,
        )
      if (value.length > rules.max)
        throw invalidParameter(
          `${name} must be at most ${rules.max.toLocaleString('en')} characters long ` +
            `(got ${value.length.toLocaleString('en')})`,
        )
      if (rules.pattern && !rules.pattern.test(value))
        throw invalidParameter(
          `${name} ${rules.patternRule ?? `must match ${rules.pattern.source}`} (got "${value.slice(0, 100)}")`,
        )
      return value
    },
  }
}

export function integerField(description: string, min: number, max: number): Field<number> {
  return {
    description,
    schema: { type: 'integer', minimum: min, maximum: max },
    parse: (value, name) => {
      if (typeof value !== 'number' || !Number.isInteger(value))
        throw invalidParameter(`${name} must be an integer (got ${typeOf(value) === 'number' ? value : typeOf(value)})`)
      if (value < min || value > max)
        throw invalidParameter(`${name} must be from ${min} to ${max.toLocaleString('en')} (got ${value})`)
      return value
    },
  }
}

/** A finite JSON number from `min` to `max`, fractions allowed. */
export function numberField(description: string, min: number, max: number): Field<number> {
  return {
    description,
    schema: { type: 'number', minimum: min, maximum: max },
    parse: (value, name) => {
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw invalidParameter(`${name} must be a number (got ${typeOf(value)})`)
      if (value < min || value > max)
        throw invalidParameter(`${name} must be from ${min} to ${max.toLocaleString('en')} (got ${value})`)
      return value
    },
  }
}

export function booleanField(description: string): Field<boolean> {
  return {
    description,
    schema: { type: 'boolean' },
    parse: (value, name) => {
      if (typeof value !== 'boolean') throw invalidParameter(`${name} must be true or false (got ${typeOf(value)})`)
      return value
    },
  }
}

export function enumField<const V extends readonly string[]>(description: string, values: V): Field<V[number]> {
  return {
    description,
    schema: { type: 'string', enum: [...values] },
    parse: (value, name) => {
      if (typeof value !== 'string' || !values.includes(value)) {
        throw invalidParameter(
          `${name} must be one of ${values.join(', ')} ` +
            `(got ${typeof value === 'string' ? `"${value.slice(0, 100)}"` : typeOf(value)})`,
        )
      }
      return value as V[number]
    },
  }
}

/** A JSON array of items of one kind; duplicates are dropped, order kept. */
export function listField<T>(description: string, item: Field<T>, rules: { min?: number; max: number }): Field<T[]> {
  const min = rules.min ?? 0
  return {
    description,
    schema: { type: 'array', items: item.schema, minItems: min, maxItems: rules.max },
    parse: (value, name) => {
      if (!Array.isArray(value)) throw invalidParameter(`${name} must be an array (got ${typeOf(value)})`)
      if (value.length < min) throw invalidParameter(`${name} must have at least ${min} item${min === 1 ? '' : 's'}`)
      if (value.length > rules.max)
        throw invalidParameter(`${name} must have at most ${rules.max} items (got ${value.length})`)
      const items = value.map((v, i) => item.parse(v, `${name}[${i}]`))
      return [...new Set(items)]
    },
  }
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** A calendar date as YYYY-MM-DD that exists (no 2026-02-30), year 0001 or later. */
export function dateField(description: string): Field<string> {
  return {
    description: `${description} (YYYY-MM-DD)`,
    schema: { type: 'string', format: 'date' },
    parse: (value, name) => {
      if (typeof value === 'string' && DATE.test(value) && !value.startsWith('0000')) {
        const d = new Date(`${value}T00:00:00Z`)
        if (!Number.isNaN(d.getTime()) && d.toISOString().startsWith(value)) return value
      }
      throw invalidParameter(`${name} must be a date as YYYY-MM-DD (got ${JSON.stringify(value)?.slice(0, 100)})`)
    },
  }
}

/** A field whose parsed value is checked or reshaped further (`then` throws a 400 or returns the value to keep). */
export function refined<T, U>(field: Field<T>, then: (value: T, name: string) => U): Field<U> {
  return { ...field, parse: (value, name) => then(field.parse(value, name), name) } as Field<U>
}

export function optional<T>(field: Field<T>): Field<T> & { optional: true } {
  return { ...field, optional: true }
}

const JSON_TYPE = /^application\/([\w.+-]*\+)?json\s*(;|$)/i

/**
 * Parses a request's body against a spec. No body at all is an empty object (so endpoints whose
 * fields are all optional can be called bare); anything but a JSON object, an unknown field, a
 * missing required field or a bad value is a 400 that says which.
 */
export function parseBody<S extends BodySpec>(request: Request, body: unknown, spec: S): ParsedBody<S> {
  const contentType = request.headers.get('content-type')
  let fields: Record<string, unknown>
  if (body === undefined && !contentType) fields = {}
  else if (!contentType || !JSON_TYPE.test(contentType)) {
    throw invalidParameter(
      `the body must be JSON, sent with Content-Type: application/json (got ${contentType ?? 'no Content-Type'})`,
    )
  } else if (typeOf(body) !== 'object') {
    throw invalidParameter(`the body must be a JSON object (got ${typeOf(body)})`)
  } else fields = body as Record<string, unknown>
  const known = Object.keys(spec)
  const unknown = Object.keys(fields).filter((name) => !Object.hasOwn(spec, name))
  if (unknown.length > 0) {
    const named =
      unknown
        .slice(0, 10)
        .map((name) => `"${name.slice(0, 100)}"`)
        .join(', ') + (unknown.length > 10 ? ` and ${unknown.length - 10} more` : '')
    throw invalidParameter(
      `unknown field${unknown.length > 1 ? 's' : ''} ${named};` +
        ` ${known.length ? `this endpoint takes ${known.join(', ')}` : 'this endpoint takes no fields'}`,
    )
  }
  const result: Record<string, unknown> = {}
  for (const [name, field] of Object.entries(spec)) {
    const value = fields[name]
    if (value === undefined) {
      if (!field.optional) throw invalidParameter(`missing field "${name}"`)
      continue
    }
    result[name] = field.parse(value, name)
  }
  return result as ParsedBody<S>
}

/** The OpenAPI requestBody for a spec, so the document and the parser agree. */
export function openApiBody(spec: BodySpec, description?: string): Record<string, unknown> {
  const required = Object.entries(spec)
    .filter(([, f]) => !f.optional)
    .map(([name]) => name)
  return {
    required: required.length > 0,
    ...(description ? { description } : {}),
    content: {
      'application/json': {
        schema: {
          type: 'object',
          additionalProperties: false,
          properties: Object.fromEntries(
            Object.entries(spec).map(([name, f]) => [name, { ...f.schema, description: f.description }]),
          ),
          ...(required.length ? { required } : {}),
        },
      },
    },
  }
}
