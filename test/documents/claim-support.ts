/** Comparing every stored claim item with a fresh build from the rows (issue 39). */
import { expect } from 'bun:test'
import { sql } from 'drizzle-orm'
import { executeRows, type Db } from '../../src/db/client'
import { documentText } from '../../src/documents/papers'
import { CLAIM_ROW_FROM, claimListRow, type ClaimPageRow } from '../../src/resources/claims/queries'
import { serializeClaimItem } from '../../src/resources/claims/serialize'
import { BASE } from './support'

/**
 * Every stored claim item equals the item built now from the rows (for two bases), and every claim has its row; a
 * NULL body is stale and allowed unless `allFresh`. Returns how many bodies were compared.
 */
export async function expectClaimDocumentsConsistent(db: Db, options: { allFresh?: boolean } = {}): Promise<number> {
  const stored = await executeRows<{ claimId: number; body: string | null }>(
    db,
    sql`select claim_id as "claimId", body from claim_documents order by claim_id`,
  )
  const rows = await executeRows<ClaimPageRow>(db, sql.raw(`${CLAIM_ROW_FROM} order by c.id`))
  expect(stored.map((r) => r.claimId)).toEqual(rows.map((r) => r.id))
  let compared = 0
  rows.forEach((row, i) => {
    const { body } = stored[i]
    if (body === null) {
      if (options.allFresh) expect(`claim ${row.id}: stale`).toBe(`claim ${row.id}: fresh`)
      return
    }
    if (body === '') return // served live by design (its text writes the base's mark)
    for (const base of [BASE, 'http://other.example:8080/x"y']) {
      const fresh = JSON.stringify(serializeClaimItem(claimListRow(row), base))
      if (documentText(body, base) !== fresh)
        expect(`claim ${row.id}: ${documentText(body, base)}`).toBe(`claim ${row.id}: ${fresh}`)
    }
    compared++
  })
  return compared
}
