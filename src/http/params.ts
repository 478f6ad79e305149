/**
 * Query parameters of /api/v1, declared once: each declaration both parses the raw value (with a
 * 400 invalid_parameter that names the parameter) and describes itself for the OpenAPI document.
 * Parsing is ours rather than Elysia's because the contract wants unknown parameters refused and
 * every message to name its parameter, which Elysia's normalising validator does not do.
 */
import { invalidParameter, quoted } from './errors'
import { queryEntries } from './percent-decoding'

type OpenApiSchema = Record<string, unknown>

export type Param<T> = {
  description: string
  schema: OpenApiSchema
  parse: (raw: string, name: string) => T
  /** Documented as required; the endpoint itself says what is missing (e.g. /search without q). */
  required?: boolean
}

export type ParamSpec = Record<string, Param<unknown>>
export type ParsedParams<S extends ParamSpec> = { [K in keyof S]: ReturnType<S[K]['parse']> | undefined }

// Years 0001-9999: PostgreSQL has no year 0, and five-digit years are not YYYY-MM-DD.
const DATE = /^(?!0000)(\d{4})-(\d{2})-(\d{2})$/
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/

/**
 * The grammar of the date parameters as a JSON Schema pattern: YYYY-MM-DD, or that followed by a time
 * with a zone. Whether the day is in the calendar (2026-02-31 is not) is the parser's to say.
 */
export const DATE_OR_TIMESTAMP_PATTERN =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:?[0-9]{2}))?$'

/** YYYY-MM-DD, or a full ISO 8601 timestamp cut to its UTC date. */
export function dateParam(description: string): Param<string> {
  return {
    description:
      `${description} A string: a date YYYY-MM-DD (years 0001 to 9999, a day in the calendar), or a full ISO 8601 ` +
      'timestamp with a zone, YYYY-MM-DDThh:mm[:ss[.fraction]] then Z or ±hh:mm (cut to its UTC date).',
    // One string type with a pattern, not an anyOf of formats: generated clients type it as a string
    // (openapi-typescript made `unknown` of the anyOf), and validators still check its grammar.
    schema: { type: 'string', pattern: DATE_OR_TIMESTAMP_PATTERN, examples: ['2026-11-01', '2026-11-01T09:30:00Z'] },
    parse: (raw, name) => {
      const date = DATE.exec(raw)
      if (date) {
        const d = new Date(`${raw}T00:00:00Z`)
        if (!Number.isNaN(d.getTime()) && d.toISOString().startsWith(raw)) return raw
      } else if (TIMESTAMP.test(raw)) {
        const d = new Date(raw)
        const day = raw.slice(0, 10)
        // Date.parse rolls 2026-02-31 over into March: refuse dates that are not in the calendar.
        const utcDay = Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 10)
        if (DATE.test(utcDay) && DATE.test(day) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day))
          return utcDay
      }
      throw invalidParameter(`${name} must be a date (YYYY-MM-DD) or an ISO 8601 timestamp (got ${quoted(raw)})`)
    },
  }
}

/**
 * The one grammar of every numeric parameter: a decimal number as JSON writes it (`2`, `0.5`,
 * `-1`, `1e0`, `2.5E-1`), and also the forms people type, a bare fraction or point (`.5`, `2.`)
 * and leading zeros (`010`). No signs but minus, no hex, no Infinity or NaN, no spaces. Integer
 * parameters take the same grammar and need an integral value (`1e1` is 10, `2.5` is refused).
 */
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

export const NUMBER_GRAMMAR =
  'A decimal number: digits with an optional fraction and exponent, as JSON writes numbers (2, 0.5, 1e0, 2.5E-1); .5 ' +
  'and 2. are read too.'

/** The value of `raw` in the numeric grammar, or null when it is not a finite number in it. */
export function readNumber(raw: string): number | null {
  if (raw.length > 64 || !NUMBER.test(raw)) return null
  const value = Number(raw)
  return Number.isFinite(value) ? value : null
}

export function numberParam(description: string, min: number, max: number, defaultValue?: number): Param<number> {
  return {
    description: `${description} ${NUMBER_GRAMMAR}`,
    schema: {
      type: 'number',
      minimum: min,
      maximum: max,
      ...(defaultValue === undefined ? {} : { default: defaultValue }),
    },
    parse: (raw, name) => {
      const value = readNumber(raw)
      if (value === null || value < min || value > max) {
        throw invalidParameter(`${name} must be a number from ${min} to ${max} (got ${quoted(raw)})`)
      }
      return value
    },
  }
}

export function integerParam(description: string, min: number, max: number, defaultValue: number): Param<number> {
  return {
    description: `${description} ${NUMBER_GRAMMAR} The value must be a whole number.`,
    schema: { type: 'integer', minimum: min, maximum: max, default: defaultValue },
    parse: (raw, name) => {
      const value = readNumber(raw)
      if (value === null || !Number.isInteger(value) || value < min || value > max) {
        throw invalidParameter(`${name} must be an integer from ${min} to ${max} (got ${quoted(raw)})`)
      }
      return value
    },
  }
}

export function booleanParam(description: string): Param<boolean> {
  return {
    description,
    schema: { type: 'boolean' },
    parse: (raw, name) => {
      if (raw === 'true') return true
      if (raw === 'false') return false
      throw invalidParameter(`${name} must be true or false (got ${quoted(raw)})`)
    },
  }
}

/** One allowed value or a comma-separated list of them; duplicates are harmless. */
export function listParam(description: string, allowed: readonly string[]): Param<string[]> {
  return {
    description: `${description} One value or a comma-separated list.`,
    schema: {
      type: 'string',
      pattern: `^(${allowed.join('|')})(,(${allowed.join('|')}))*$`,
      'x-allowed-values': allowed,
    },
    parse: (raw, name) => {
      const values = [...new Set(raw.split(','))]
      const bad = values.filter((v) => !allowed.includes(v))
      if (bad.length > 0) {
        const shown = bad.slice(0, 5).map(quoted).join(', ') + (bad.length > 5 ? ', …' : '')
        throw invalidParameter(
          `${name} has unknown value${bad.length > 1 ? 's' : ''} ${shown}; allowed: ${allowed.join(', ')}`,
        )
      }
      return values
    },
  }
}

export function stringParam(description: string, maxLength: number, minLength = 1): Param<string> {
  return {
    description,
    schema: { type: 'string', minLength, maxLength },
    parse: (raw, name) => {
      if (raw.length < minLength) throw invalidParameter(`${name} must not be empty`)
      if (raw.length > maxLength)
        throw invalidParameter(`${name} must be at most ${maxLength} characters (got ${raw.length})`)
      return raw
    },
  }
}

export const pagingParams = {
  cursor: {
    ...stringParam(
      'Opaque; the pagination.next_cursor of the previous page. The other parameters must stay the same.',
      1024,
    ),
  },
  limit: integerParam('Page size.', 1, 100, 25),
}

/**
 * Parses a URL's query against a spec: unknown and repeated parameters are refused, and an empty
 * value counts as given (so `limit=` is a 400, not the default). Names and values are decoded
 * strictly (src/http/percent-decoding.ts): bytes that are not UTF-8 are a 400 naming the parameter.
 */
export function parseParams<S extends ParamSpec>(url: string, spec: S): ParsedParams<S> {
  const result: Record<string, unknown> = {}
  const seen = new Set<string>()
  for (const { name, value: raw, rawName } of queryEntries(url)) {
    if (name === null)
      throw invalidParameter(`a parameter name is not valid percent-encoded UTF-8 (got ${quoted(rawName)})`)
    if (!Object.hasOwn(spec, name)) {
      const known = Object.keys(spec)
      const takes = known.length ? `; this endpoint takes ${known.join(', ')}` : '; this endpoint takes none'
      throw invalidParameter(`unknown parameter ${quoted(name)}${takes}`)
    }
    if (seen.has(name)) throw invalidParameter(`${name} is given more than once`)
    seen.add(name)
    if (raw === null) throw invalidParameter(`${name} is not valid percent-encoded UTF-8`)
    // PostgreSQL text cannot hold NUL, so it would fail in the database instead of here.
    if (raw.includes('\0')) throw invalidParameter(`${name} must not contain the NUL character (%00)`)
    result[name] = spec[name].parse(raw, name)
  }
  return result as ParsedParams<S>
}

/**
 * A path parameter as the router decoded it: null when its percent-encoding is not UTF-8 (or not
 * percent-encoding at all), which is a 400 naming it.
 */
export function pathParam(value: string | null | undefined, name: string): string {
  if (value === null || value === undefined)
    throw invalidParameter(`${name} in the path is not valid percent-encoded UTF-8`)
  return value
}

/**
 * OpenAPI `parameters` for a spec (plus path parameters), so the document and the parser agree.
 * Typed loosely (`never[]`) because the plugin's ParameterObject type is stricter than the JSON it accepts.
 */
export function openApiParameters(spec: ParamSpec, path: Record<string, string> = {}): never[] {
  return [
    ...Object.entries(path).map(([name, description]) => ({
      name,
      in: 'path',
      required: true,
      description,
      schema: { type: 'string' },
    })),
    ...Object.entries(spec).map(([name, p]) => ({
      name,
      in: 'query',
      required: p.required ?? false,
      description: p.description,
      schema: p.schema,
    })),
  ] as never[]
}
