/**
 * Entities by any name: a path whose key is not an entity's key may still name one entity
 * of that type (a name, an alias, the key in another case: /entities/gene/p16), and is then sent to
 * that entity's own address with a 308; the Data API and the site's entity pages share this.
 * Unknown stays a 404; a name shared by several entities of the type is a 404 that names them, so
 * the caller can choose (no guess: the most-studied is not always the one meant).
 */
import type { Db } from '../../../db/client'
import { notFound, quoted } from '../../../http/errors'
import { PermanentRedirect } from '../../../http/redirect'
import { entitiesNamed } from '../../../resources/entities/queries'

/**
 * What to answer for `type`/`value` when no entity has that key: a PermanentRedirect to
 * `urlOf(canonical key)` with `search` (the query string) kept, or the 404.
 */
export async function redirectOrNotFound(
  db: Db,
  type: string,
  value: string,
  search: string,
  urlOf: (key: string) => string,
): Promise<never> {
  const candidates = await entitiesNamed(db, type, value)
  if (candidates.length === 1) throw new PermanentRedirect(`${urlOf(candidates[0].key)}${search}`)
  if (candidates.length === 0)
    throw notFound(`no entity of type ${quoted(type)} with key ${quoted(value)}, nor one of that type by that name`)
  const shown = candidates
    .slice(0, 5)
    .map((c) => `${c.key} (${c.name})`)
    .join(', ')
  throw notFound(
    `${quoted(value)} names ${candidates.length > 5 ? 'more than 5' : candidates.length} entities of ` +
      `type ${quoted(type)}: ` +
      `${shown}; ask for one by its key`,
  )
}
