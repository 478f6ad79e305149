/** Comparing every stored entity page with a fresh build from the rows (issue 39). */
import { expect } from 'bun:test'
import { sql } from 'drizzle-orm'
import { executeRows, type Db } from '../../src/db/client'
import { documentText } from '../../src/documents/papers'
import { ENTITY_PAGE_SIZE, entityPageData, nextPositionOf } from '../../src/documents/entities'
import { getEntityDetailPage } from '../../src/resources/entities/queries'
import { BASE } from './support'

/**
 * Every stored entity page equals the first page the live route builds now from the rows (for two bases), its next
 * position included, and every entity has its row; a NULL body is stale and allowed unless `allFresh`. Returns how
 * many pages were compared.
 */
export async function expectEntityDocumentsConsistent(db: Db, options: { allFresh?: boolean } = {}): Promise<number> {
  const stored = await executeRows<{ id: number; type: string; key: string; body: string | null; next: string | null }>(
    db,
    sql`select e.id, e.type, e.key, d.body, d.next_position as next
    from entities e left join entity_documents d on d.entity_id = e.id order by e.id`,
  )
  let compared = 0
  for (const { id, type, key, body, next } of stored) {
    const what = `entity ${id} (${type}/${key})`
    expect(`${what}: ${body === undefined ? 'no row' : 'row'}`).toBe(`${what}: row`)
    if (body === null) {
      if (options.allFresh) expect(`${what}: stale`).toBe(`${what}: fresh`)
      if (next !== null) expect(`${what}: next ${next} beside a stale body`).toBe(`${what}: no next`)
      continue
    }
    if (body === '') continue // served live by design (its text writes the base's mark)
    const page = (await getEntityDetailPage(db, type, key, undefined, ENTITY_PAGE_SIZE, null))!
    const shown = { ...page, papers: page.papers.slice(0, ENTITY_PAGE_SIZE) }
    for (const base of [BASE, 'http://other.example:8080/x"y']) {
      const fresh = JSON.stringify(entityPageData(shown, base))
      if (documentText(body, base) !== fresh) expect(`${what}: ${documentText(body, base)}`).toBe(`${what}: ${fresh}`)
    }
    const position = nextPositionOf(page, ENTITY_PAGE_SIZE)
    expect(`${what} next: ${next}`).toBe(`${what} next: ${position && JSON.stringify(position)}`)
    compared++
  }
  return compared
}
