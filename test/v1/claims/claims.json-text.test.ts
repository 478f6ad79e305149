/**
 * /claims items are written as JSON by PostgreSQL (src/queries/claims.ts, src/queries/json-values.ts):
 * every byte must be what the JavaScript serializer makes of the same rows, awkward values included —
 * confidences JavaScript and PostgreSQL write differently, microsecond timestamps, quotes and control
 * characters in text, contexts of every shape (empty, nested, keys JavaScript orders first, numbers
 * jsonb keeps as 1.0), paper ids that need URL encoding, withheld evidence, and `fields=`.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { listClaims, type ClaimFilters } from '../../../src/queries/claims'
import { serializeClaimItem } from '../../../src/modules/v1/claims/serialize'
import { select, type Selection } from '../../../src/modules/v1/fields'
import { req, useTestApp } from '../../support/app'
import { bearer, insertClaim, insertEntity, insertPapers, paperRow } from '../../support/fixtures'

const api = useTestApp()
const BASE = 'https://geroscope.test' // PUBLIC_BASE_URL of the test app (test/support/app.ts)

const awkwardFloats = [0.00001, 1.5e-5, 1e-7, 2.5e-10, 0.0001, 0.1 + 0.2, 1 / 3, 5e-324, 1e15, 1.2345678901234567e20, 1e21, 3, 0, -0, null]
const contexts: unknown[] = [
  null, {}, { sex: 'male', n: 40 }, { n: 1.0, big: 1e5, tiny: 0.0000001, neg: -2.5, t: true, f: false, z: null },
  { nested: { a: 1 } }, { list: [1, 'two'] }, { '2': 'x', b: 'y' }, { 'quote "': 'tab \t newline \n \u0001 é 🧬 \u2028' },
  { long_key_first: 1, a: 2 }, [1, 2], 'a string', 12,
]

beforeAll(async () => {
  const db = api.database.db
  const rows = [
    paperRow({ id: 'MED-801', abstractLicense: 'cc by', title: 'Quote " backslash \\ control \u0001 \u001f del \u007f' }),
    paperRow({ id: 'MED-802', abstractLicense: 'cc by-nc', doi: null, publishedDate: null, preprint: true }),
    paperRow({ id: 'PPR-é 1/2?', abstractLicense: 'public domain' }),
    paperRow({ id: 'MED-803', abstractLicense: null }),
  ]
  await insertPapers(db, rows)
  const gene = await insertEntity(db, 'gene', 'NCBIGene:2475', 'MTOR "x"')
  const drug = await insertEntity(db, 'compound', 'CHEBI:9168', 'rapamycin \\ é')
  let i = 0
  for (const confidence of awkwardFloats) {
    for (const context of [contexts[i % contexts.length], contexts[(i + 5) % contexts.length]]) {
      const paper = rows[i % rows.length]
      await insertClaim(db, {
        paperId: paper.id, confidence, context: context as Record<string, unknown> | null,
        subjectEntityId: i % 3 ? drug.id : null, objectEntityId: i % 4 ? null : gene.id,
        subjectText: `subject "${i}" \n é`, objectText: `object \\ ${i} \u2028`, organism: i % 5 ? 'Mus musculus' : null,
        direction: i % 2 ? 'increase' : null, magnitude: i % 3 ? null : '12% "more"', evidence: i % 4 ? `evidence </script> ${i}` : null,
        createdAt: new Date(Date.UTC(2026, 9, 1 + (i % 7), 8, 0, 0, i)),
      })
      i++
    }
  }
  // Microseconds JavaScript truncates, and claims tied to the millisecond.
  await db.execute(sql`update claims set created_at = '2026-10-09 08:00:00.000999+00' where id in (select id from claims order by id limit 3)`)
  await db.execute(sql`update claims set created_at = '2026-10-09 08:00:00.999999-03:30' where id = (select max(id) from claims)`)
})

/** The answer the JavaScript serializers make of the same filter's rows: what /claims served before. */
async function expected(filters: ClaimFilters, limit: number, selection?: Selection) {
  const rows = await listClaims(api.database.db, filters, limit, null)
  const data = rows.slice(0, limit).map((r) => serializeClaimItem(r, BASE))
  return { data, selected: selection ? select(data, selection) : data, hasMore: rows.length > limit }
}

async function served(query: string) {
  const response = await api.app.handle(req(`/api/v1/claims${query}`, bearer(api.key)))
  expect(response.status).toBe(200)
  return response.text()
}

describe('GET /api/v1/claims written by PostgreSQL', () => {
  test('every item is byte for byte what JSON.stringify writes of the serialized rows', async () => {
    const text = await served('?limit=100')
    const { data } = await expected({}, 100)
    expect(data.length).toBe(awkwardFloats.length * 2)
    expect(text).toBe(JSON.stringify({ data, pagination: { next_cursor: null, has_more: false, limit: 100 } }))
  })

  test('pages and their cursors are the same as before, tied milliseconds included', async () => {
    let path = '/api/v1/claims?limit=4'
    const seen: number[] = []
    for (let page = 0; page < 20 && path; page++) {
      const text = await served(path.slice('/api/v1/claims'.length))
      const body = JSON.parse(text) as { data: { id: number }[]; pagination: { next_cursor: string | null } }
      expect(text.startsWith('{"data":[')).toBe(true)
      seen.push(...body.data.map((c) => c.id))
      path = body.pagination.next_cursor ? `/api/v1/claims?limit=4&cursor=${body.pagination.next_cursor}` : ''
    }
    const { data } = await expected({}, 100)
    expect(seen).toEqual(data.map((c) => c.id))
  })

  test('filters, fields= and count= keep the bytes', async () => {
    const text = await served('?subject=rapamycin%20%5C%20%C3%A9&limit=5&count=true')
    const { data, hasMore } = await expected({ subject: 'rapamycin \\ é' }, 5)
    const parsed = JSON.parse(text)
    expect(text).toBe(JSON.stringify({ data, pagination: { next_cursor: parsed.pagination.next_cursor, has_more: hasMore, limit: 5, total: parsed.pagination.total } }))
    const selection: Selection = { id: true, context: true, paper: { site_url: true } }
    const cut = await served('?fields=id,context,paper.site_url&limit=100')
    expect(cut).toBe(JSON.stringify({ data: (await expected({}, 100, selection)).selected, pagination: { next_cursor: null, has_more: false, limit: 100 } }))
  })
})
