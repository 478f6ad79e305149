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
