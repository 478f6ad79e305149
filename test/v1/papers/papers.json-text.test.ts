/**
 * /papers and /stories pages with fields= are written as JSON by PostgreSQL (src/resources/papers/paper-json.ts):
 * every byte must be what the JavaScript serializers make of the same rows, awkward values included —
 * floats JavaScript and PostgreSQL write differently, microsecond timestamps, control characters
 * and quotes in text, ids that need URL encoding, withheld abstracts, missing judgements, and
 * `fields=` selections.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { listPapers, type PaperFilters } from '../../../src/resources/papers/queries'
import { listStories } from '../../../src/resources/stories/queries'
import { listPapersJson, listStoriesJson } from '../../../src/resources/papers/paper-json'
import { serializeListedPaper } from '../../../src/resources/papers/serialize'
import { serializeStoryItem } from '../../../src/resources/stories/serialize'
import { select, type Selection } from '../../../src/modules/v1/fields'
import { req, useTestApp } from '../../support/app'
import {
  bearer,
  insertClaim,
  insertEntity,
  insertPapers,
  insertStory,
  linkEntity,
  paperRow,
} from '../../support/fixtures'

const api = useTestApp()
const BASE = 'https://geroscope.test' // PUBLIC_BASE_URL of the test app (test/support/app.ts)

const awkwardFloats = [
  0.00001,
  1.5e-5,
  1e-7,
  2.5e-10,
  0.0001,
  0.1 + 0.2,
  1 / 3,
  5e-324,
  1e15,
  1.2345678901234567e20,
  1e21,
  3,
  0,
  -0,
]

beforeAll(async () => {
  const rows = awkwardFloats.map((x, i) =>
    paperRow({
      id: `MED-${900 + i}`,
      indexedDate: `2026-09-${String(10 + i).padStart(2, '0')}`,
      relevance: 2 + (i % 10) / 10,
      relevanceConfidence: x,
      studyTypeConfidence: awkwardFloats[(i + 1) % awkwardFloats.length],
      topicConfidence: x === 0 ? null : x,
      promotional: x,
      newsworthiness: i % 2 ? null : x,
      studyType: i % 3 ? 'animal' : null,
      topic: i % 4 ? 'mtor-rapamycin' : null,
      title: `Quote " backslash \\ tab \t newline \n control \u0001 \u001f del \u007f line sep \u2028 emoji 🧬 é ${i}`,
      abstractLicense: i % 2 ? 'cc by' : i % 3 ? null : 'cc by-nc',
      abstract: i % 5 ? `Abstract </script> ${i}` : null,
      doi: i % 3 ? null : `10.1/x"${i}`,
      publishedDate: i % 4 ? '2026-09-01' : null,
      preprint: i % 2 === 0,
      publicationTypes: i % 3 ? ['Journal Article', 'Review "x"'] : [],
      judgementModel: i % 5 ? 'm' : null,
      judgementPromptVersion: i % 6 ? 'v' : null,
    }),
  )
  rows.push(paperRow({ id: 'MED-990', indexedDate: '2026-09-30', relevance: null, judgedAt: null }))
  rows.push(paperRow({ id: 'PPR-é 1/2?', indexedDate: '2026-09-29', relevance: 2.5 }))
  await insertPapers(api.database.db, rows)
  await api.database.db.execute(sql`update papers set judged_at = '2026-11-23 12:34:56.123987+00' where id = 'MED-901'`)
  await api.database.db.execute(
    sql`update papers set judged_at = '2026-11-23 23:59:59.999999-03:30' where id = 'MED-902'`,
  )
  for (const [i, row] of rows.entries()) {
    if (i % 2) continue
    await insertStory(api.database.db, row.id, {
      headline: `Story "${i}" \n`,
      support: awkwardFloats[i % awkwardFloats.length] || null,
      publishedAt: new Date(Date.UTC(2026, 9, 1 + (i % 5), 8, 0, 0, i)),
    })
  }
  await api.database.db.execute(
    sql`update stories set published_at = '2026-10-09 08:00:00.000999+00' where paper_id = 'MED-900'`,
  )
  const gene = await insertEntity(api.database.db, 'gene', 'NCBIGene:2475', 'MTOR "x"', {
    ncbi: '2475',
    '10': 'ten',
    b: '1',
  })
  const drug = await insertEntity(api.database.db, 'compound', 'CHEBI:9168', 'rapamycin')
  for (const id of ['MED-900', 'MED-901', 'MED-902', 'MED-903']) {
    await linkEntity(api.database.db, id, '2026-09-10', gene.id, 'target', {
      mention: 'mTOR',
      description: 'kinase',
      score: 1.5,
      n: 100,
    })
    await linkEntity(api.database.db, id, '2026-09-10', drug.id, 'intervention')
    await insertClaim(api.database.db, {
      paperId: id,
      subjectEntityId: drug.id,
      objectEntityId: gene.id,
      context: { dose: '1 mg/kg', '2': 'x' },
      confidence: 0.00001,
    })
    await insertClaim(api.database.db, { paperId: id, context: {}, confidence: null })
  }
  await api.database.db.execute(
    sql`insert into upvotes (paper_id, account_id) select 'MED-901', id from accounts limit 1`,
  )
})

const get = async (path: string) => {
  const response = await api.app.handle(req(path, bearer(api.key)))
  expect(response.status).toBe(200)
  return response.text()
}

const filters: PaperFilters = { minRelevance: 0 }

describe("a /papers page written by PostgreSQL is byte for byte the JavaScript serializers' page", () => {
  test('every field selected, every awkward value included', async () => {
    const rows = await listPapers(api.database.db, filters, 100, null)
    const keys = Object.keys(serializeListedPaper(rows[0]!, BASE))
    const body = await get(`/api/v1/papers?min_relevance=0&limit=100&fields=${keys.join(',')}`)
    expect(
      await listPapersJson(api.database.db, BASE, filters, 100, null, Object.fromEntries(keys.map((k) => [k, true]))),
    ).not.toBeNull() // written in SQL
    const expected = JSON.stringify({
      data: rows.map((r) => serializeListedPaper(r, BASE)),
      pagination: { next_cursor: null, has_more: false, limit: 100 },
    })
    expect(body).toBe(expected)
    expect(rows.length).toBe(awkwardFloats.length + 2)
  })

  test.each([
    ['id,title'],
    ['judgement.relevance_confidence,judgement.judged_at,site_url'],
    ['story.url,abstract,abstract_license'],
    ['judgement,story'],
    ['publication_types,doi,preprint,published_date'],
  ])('fields=%s', async (fields) => {
    const body = await get(`/api/v1/papers?min_relevance=0&limit=100&fields=${fields}`)
    const rows = await listPapers(api.database.db, filters, 100, null)
    const selection: Selection = {}
    for (const path of fields.split(',')) {
      const [head, inner] = path.split('.')
      if (!inner) selection[head] = true
      else if (selection[head] !== true)
        (selection[head] = (selection[head] as Selection | undefined) ?? ({} as Selection)),
          ((selection[head] as Selection)[inner] = true)
    }
    const data = select(
      rows.map((r) => serializeListedPaper(r, BASE)),
      selection,
    )
    expect(await listPapersJson(api.database.db, BASE, filters, 100, null, selection)).not.toBeNull() // written in SQL, not in JavaScript
    expect(body).toBe(JSON.stringify({ data, pagination: { next_cursor: null, has_more: false, limit: 100 } }))
  })

  test('more selections than are kept prepared still answer exactly (the rest run unprepared)', async () => {
    const keys = [
      'id',
      'source',
      'doi',
      'title',
      'authors',
      'journal',
      'published_date',
      'indexed_date',
      'preprint',
      'url',
    ]
    const rows = await listPapers(api.database.db, filters, 5, null)
    for (let mask = 1; mask <= 80; mask++) {
      const chosen = keys.filter((_, i) => mask & (1 << i))
      const body = await get(`/api/v1/papers?min_relevance=0&limit=5&fields=${chosen.join(',')}`)
      const data = select(
        rows.slice(0, 5).map((r) => serializeListedPaper(r, BASE)),
        Object.fromEntries(chosen.map((k) => [k, true])),
      )
      expect(JSON.parse(body).data).toEqual(data)
      expect(body.startsWith(JSON.stringify({ data }).slice(0, -1))).toBe(true)
    }
  })

  test('a page and the next one, through the cursor', async () => {
    const all = Object.keys(serializeListedPaper((await listPapers(api.database.db, filters, 1, null))[0]!, BASE)).join(
      ',',
    )
    const first = JSON.parse(await get(`/api/v1/papers?min_relevance=0&limit=3&fields=${all}`))
    const next = await get(
      `/api/v1/papers?min_relevance=0&limit=3&fields=${all}&cursor=${first.pagination.next_cursor}`,
    )
    const rows = await listPapers(api.database.db, filters, 3, {
      indexedDate: first.data[2].indexed_date,
      id: first.data[2].id,
    })
    expect(JSON.parse(next).data).toEqual(rows.slice(0, 3).map((r) => serializeListedPaper(r, BASE)))
    expect(
      next.startsWith(
        JSON.stringify({ data: rows.slice(0, 3).map((r) => serializeListedPaper(r, BASE)) }).slice(0, -1),
      ),
    ).toBe(true)
  })
})

describe("a /stories page written by PostgreSQL is byte for byte the JavaScript serializers' page", () => {
  test('every field selected', async () => {
    const rows = await listStories(api.database.db, {}, 100, null)
    const keys = Object.keys(serializeStoryItem(rows[0]!, BASE))
    const body = await get(`/api/v1/stories?limit=100&fields=${keys.join(',')}`)
    expect(
      await listStoriesJson(api.database.db, BASE, {}, 100, null, Object.fromEntries(keys.map((k) => [k, true]))),
    ).not.toBeNull() // written in SQL
    expect(rows.length).toBeGreaterThan(5)
    expect(body).toBe(
      JSON.stringify({
        data: rows.map((r) => serializeStoryItem(r, BASE)),
        pagination: { next_cursor: null, has_more: false, limit: 100 },
      }),
    )
  })

  test('fields=paper.judgement,support,published_at', async () => {
    const body = await get('/api/v1/stories?limit=100&fields=paper.judgement,support,published_at')
    const rows = await listStories(api.database.db, {}, 100, null)
    const data = select(
      rows.map((r) => serializeStoryItem(r, BASE)),
      { support: true, published_at: true, paper: { judgement: true } },
    )
    expect(body).toBe(JSON.stringify({ data, pagination: { next_cursor: null, has_more: false, limit: 100 } }))
  })
})

describe('ids that need URL encoding', () => {
  test('site_url of a fields= page encodes the id as the serializer does', async () => {
    const rows = await listPapers(api.database.db, filters, 100, null)
    const odd = rows.find((r) => r.id.startsWith('PPR-'))!
    expect(
      JSON.parse(await get('/api/v1/papers?min_relevance=0&limit=100&fields=id,site_url')).data.find(
        (p: { id: string }) => p.id === odd.id,
      ).site_url,
    ).toBe(`${BASE}/papers/PPR-%C3%A9%201%2F2%3F`)
  })
})
