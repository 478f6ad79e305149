/**
 * Each order of /api/v1/papers (src/resources/papers/paper-order.ts) is read from its own index (drizzle/0032): a page
 * after a position is an index range in the order's direction (the rows below its key never sorted), and so is
 * a range of publication dates, which counts read too. The planner matches an index only to the expression it
 * holds, so these plans fail when src/resources/papers/paper-order.ts and src/db/schema.ts drift apart.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { PAPER_ORDERS } from '../../src/resources/papers/paper-order'
import { freshDatabase, type TestDatabase } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'

const DAY = 86_400_000
let database: TestDatabase

beforeAll(async () => {
  database = await freshDatabase()
  const rows = Array.from({ length: 3_000 }, (_, n) =>
    paperRow({
      id: `MED-${90_000_000 + n}`,
      doi: null,
      publishedDate: n % 20 === 0 ? null : new Date(Date.UTC(2025, 0, 1) + (n % 400) * DAY).toISOString().slice(0, 10),
      newsworthiness: n % 13 === 0 ? null : (n % 300) / 100,
    }),
  )
  for (let i = 0; i < rows.length; i += 1_000) await insertPapers(database.db, rows.slice(i, i + 1_000))
  await database.db.execute(sql`analyze papers`)
})
afterAll(async () => {
  await database?.close()
})

/** The plan of `select p.id from papers p where <where> <order> limit 26`, as text. */
async function plan(where: string, order: string): Promise<string> {
  const text = `explain (costs off) select p.id from papers p where ${where} ${order} limit 26`
  const rows = await database.rows<{ 'QUERY PLAN': string }>(sql.raw(text))
  return rows.map((r) => r['QUERY PLAN']).join('\n')
}

describe('the plans of the orders', () => {
  test.each([
    ['published_date', 'papers_published_order_idx', `'2025-06-01'`],
    ['newsworthiness', 'papers_newsworthiness_order_idx', `1.5`],
  ] as const)('%s: the rows after a position are a range of %s, not sorted', async (sort, index, value) => {
    const { key, newest, cast } = PAPER_ORDERS[sort]
    // The rows below the position: walked in order, never sorted (their number is unbounded).
    const below = await plan(`${key} < ${value}::${cast}`, newest)
    expect(below).toContain(index)
    expect(below).not.toMatch(/\bSort\b/)
    // The rest of the rows tied on the position's key: the planner may sort those few by id.
    expect(await plan(`${key} = ${value}::${cast} and p.id > 'MED-90000100'`, newest)).toContain(index)
  })

  test("a range of publication dates is a range of the publication order's index", async () => {
    const { key } = PAPER_ORDERS.published_date
    const range = `${key} >= '2025-03-01'::date and ${key} <= '2025-03-10'::date and ${key} > '-infinity'::date`
    const text = await plan(range, '')
    expect(text).toContain('papers_published_order_idx')
  })
})
