/**
 * `fields=` on the Data API's list and detail endpoints: the answer keeps only the named
 * fields of each item, nested paths included (`judgement.topic`, `entities.name`). The allowed paths
 * are read from the item's own TypeBox schema (the one the OpenAPI document shows), so they cannot
 * drift from the answers; an unknown path is a 400 naming it. Pagination is never cut.
 */
import type { TSchema } from 'elysia'
import { invalidParameter, quoted } from '../../../http/errors'
import type { Param } from '../../../http/params'

/** A selection: for each kept field, true (the whole value) or the selection inside it. */
export type Selection = { [field: string]: true | Selection }

const MAX_FIELDS_LENGTH = 2000

type Schema = { type?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] }

/** The object schema inside `s`, looking through nullable unions and arrays; null for a scalar. */
function objectInside(s: Schema): Schema | null {
  if (s.properties) return s
  if (s.items) return objectInside(s.items)
  for (const member of s.anyOf ?? []) {
    const inner = objectInside(member)
    if (inner) return inner
  }
  return null
}

/** Every path a selection may name in objects of `schema`: "id", "judgement", "judgement.topic", ... */
export function fieldPaths(schema: TSchema): string[] {
  const paths: string[] = []
  const walk = (s: Schema, prefix: string) => {
    for (const [name, child] of Object.entries(s.properties ?? {})) {
      paths.push(prefix + name)
      const inner = objectInside(child)
      if (inner) walk(inner, `${prefix}${name}.`)
    }
  }
  walk(schema as Schema, '')
  return paths
}

/** The `fields` parameter for endpoints whose items are `schema`; `what` names the item in messages. */
export function fieldsParam(schema: TSchema, what: string): Param<Selection> {
  const allowed = new Set(fieldPaths(schema))
  const top = fieldPaths(schema).filter((p) => !p.includes('.'))
  return {
    description:
      `Keep only these fields of each ${what}: a comma-separated list of names, nested with dots (judgement.topic ` +
      `keeps ` +
      `only the topic inside judgement; a null object stays null). Fields not asked for are left out of the answer, ` +
      `so the required ` +
      `fields of the 200 schema below are those asked for. Top-level fields: ${top.join(', ')}.`,
    schema: { type: 'string', maxLength: MAX_FIELDS_LENGTH, examples: [top.slice(0, 2).join(',')] },
    parse: (raw, name) => {
      if (raw.length > MAX_FIELDS_LENGTH)
        throw invalidParameter(`${name} must be at most ${MAX_FIELDS_LENGTH} characters (got ${raw.length})`)
      const selection: Selection = {}
      for (const path of raw.split(',')) {
        if (path === '')
          throw invalidParameter(`${name} has an empty field name (fields are separated by single commas)`)
        if (!allowed.has(path))
          throw invalidParameter(
            `${name} has unknown field ${quoted(path)}; fields of ${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what}:` +
              ` ${top.join(', ')} (nest with dots, e.g. ${nestedExample(allowed)})`,
          )
        addPath(selection, path.split('.'))
      }
      return selection
    },
  }
}

const nestedExample = (allowed: Set<string>) => [...allowed].find((p) => p.includes('.')) ?? [...allowed][0]

function addPath(selection: Selection, parts: string[]): void {
  const [head, ...rest] = parts
  if (rest.length === 0) {
    selection[head] = true // the whole field, whatever was asked inside it before
    return
  }
  const current = selection[head]
  if (current === true) return
  const inner = current ?? {}
  selection[head] = inner
  addPath(inner, rest)
}

/** `value` cut to `selection`: objects keep the selected keys in their own order; arrays are cut item by item. */
export function select(value: unknown, selection: Selection): unknown {
  if (Array.isArray(value)) return value.map((v) => select(v, selection))
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    const wanted = selection[key]
    if (wanted === undefined) continue
    out[key] = wanted === true ? v : select(v, wanted)
  }
  return out
}

/** An answer `{ data, ... }` with its data (one item, a list, or a list with nulls) cut to `selection` when given. */
export function selectFields<A extends { data: unknown }>(answer: A, selection: Selection | undefined): A {
  return selection ? { ...answer, data: select(answer.data, selection) } : answer
}
