/** Path parameters of the admin interface. */
import { invalidParameter } from '../../http/errors'

/** A row id in a path (/api/accounts/12): a positive integer that fits a PostgreSQL integer. */
export function pathId(raw: string, name = 'id'): number {
  const id = Number(raw)
  if (!/^\d{1,10}$/.test(raw) || id < 1 || id > 2_147_483_647) throw invalidParameter(`${name} must be a positive integer (got "${raw.slice(0, 50)}")`)
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
  if (raw === null || raw === undefined) throw invalidParameter(`${name} in the path is not valid percent-encoded UTF-8`)
  if (raw.length === 0 || raw.length > 200 || raw.includes('\0')) {
    throw invalidParameter(`${name} in the path must be a paper id such as MED-39172536 (1 to 200 characters, no NUL)`)
  }
  return raw
}

export const paperPathIdParameters = [{
  name: 'id', in: 'path', required: true, description: 'The paper id, e.g. MED-39172536 or PPR-841231.', schema: { type: 'string', minLength: 1, maxLength: 200 },
}] as never[]
