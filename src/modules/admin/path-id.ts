/**
 * Path parameters of the admin interface. The router hands over a parameter as null when its
 * percent-encoding is not UTF-8 (`%ff`); every path parameter goes through one of these, so such a
 * value, a NUL or an over-long one is a 400 naming it, never a 500 further in.
 */
import { invalidParameter, quoted } from '../../http/errors'
import { pathParam } from '../../http/params'

/** A textual id in a path (/api/prompts/judge): valid UTF-8, no NUL, at most `maxLength` characters. */
export function pathText(raw: string | null | undefined, name: string, maxLength: number): string {
  const value = pathParam(raw, name)
  if (value.includes('\0')) throw invalidParameter(`${name} in the path must not contain the NUL character (%00)`)
  if (value.length > maxLength)
    throw invalidParameter(`${name} in the path must be at most ${maxLength} characters (got ${value.length})`)
  return value
}

/** A row id in a path (/api/accounts/12): a positive integer that fits a PostgreSQL integer. */
export function pathId(raw: string | null | undefined, name = 'id'): number {
  const value = pathParam(raw, name)
  const id = Number(value)
  if (!/^\d{1,10}$/.test(value) || id < 1 || id > 2_147_483_647)
    throw invalidParameter(`${name} must be a positive integer (got ${quoted(value)})`)
  return id
}

export const pathIdSchema = { type: 'integer', minimum: 1, maximum: 2_147_483_647 }

/** OpenAPI `parameters` for path ids, in the loose type the plugin accepts. */
export const pathIdParameters = (...names: string[]) =>
  names.map((name) => ({ name, in: 'path', required: true, schema: pathIdSchema })) as never[]

/**
 * A paper id in a path (/api/papers/MED-39172536/judgement), as the router decoded it: null when its
 * percent-encoding is not UTF-8 (%ff), which is a 400 naming it, as is an id no paper could have.
 */
export function paperPathId(raw: string | null | undefined, name = 'id'): string {
  if (raw === null || raw === undefined)
    throw invalidParameter(`${name} in the path is not valid percent-encoded UTF-8`)
  if (raw.length === 0 || raw.length > 200 || raw.includes('\0')) {
    throw invalidParameter(`${name} in the path must be a paper id such as MED-39172536 (1 to 200 characters, no NUL)`)
  }
  return raw
}

export const paperPathIdParameters = [
  {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The paper id, e.g. MED-39172536 or PPR-841231.',
    schema: { type: 'string', minLength: 1, maxLength: 200 },
  },
] as never[]
