import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { claims } from '../../../src/db/schema'
import { freshDatabase, type TestDatabase } from '../../support/database'
import { createTestKey, insertClaim, insertPapers, paperRow } from '../../support/fixtures'
import { getter, insertCountedEntity, knowledgeApp, setClaimCreatedAt, walk } from '../../support/fixtures-knowledge'

let database: TestDatabase
let key: string
let get: ReturnType<typeof getter>
const claimIds: Record<string, number> = {}

// One paper per licence: evidence is served under cc by, cc0 and public domain only.
const rows = [
  paperRow({ id: 'MED-301', abstractLicense: 'cc by' }),
  paperRow({ id: 'MED-302', abstractLicense: 'cc by-nc', doi: null, url: 'https://europepmc.org/article/MED/302' }),
  paperRow({ id: 'MED-303', abstractLicense: 'cc by-sa' }),
  paperRow({ id: 'MED-304', abstractLicense: null }),
  paperRow({ id: 'MED-305', abstractLicense: 'cc0' }),
  paperRow({
    id: 'PPR-30',
    source: 'PPR',
    preprint: true,
    journal: 'bioRxiv',
    publishedDate: null,
    abstractLicense: 'public domain',
  }),
]

const EVIDENCE = 'Rapamycin extended median lifespan by 12% in male mice.'

beforeAll(async () => {
  database = await freshDatabase()
  const db = database.db
  get = getter(await knowledgeApp(database), () => key)
  key = (await createTestKey(db, { tier: 'pro' })).key
  await insertPapers(db, rows)
  const rapamycin = await insertCountedEntity(db, 'intervention', 'CHEBI:9168', 'rapamycin', 2)
  const mtor = await insertCountedEntity(db, 'gene', 'HGNC:3942', 'MTOR', 1)
  const lifespan = await insertCountedEntity(db, 'phenotype', 'lifespan', 'Lifespan', 1)
  const tie = new Date('2026-10-05T10:00:00Z')
  const add = async (name: string, values: Parameters<typeof insertClaim>[1]) => {
    claimIds[name] = (await insertClaim(db, values)).id
  }
  await add('c1', {
    paperId: 'MED-301',
    subjectEntityId: rapamycin.id,
    objectText: 'median lifespan',
    objectEntityId: lifespan.id,
    context: { sex: 'male', n: 40 },
    createdAt: tie,
  })
  await add('c2', {
    paperId: 'MED-302',
    subjectText: 'sirolimus',
    subjectEntityId: rapamycin.id,
    relation: 'decreases',
    objectText: 'mTORC1 activity',
    objectEntityId: mtor.id,
    organism: 'Homo sapiens',
    direction: 'decrease',
    magnitude: null,
    confidence: null,
    createdAt: tie,
  })
  await add('c3', {
    paperId: 'MED-303',
    subjectText: 'metformin',
    relation: 'increases',
    objectText: 'AMPK activity up 50%',
    organism: 'Caenorhabditis elegans',
    createdAt: new Date('2026-10-04T00:00:00Z'),
  })
  await add('c4', {
    paperId: 'MED-304',
    subjectText: 'IL_6 levels',
    relation: 'associated_with',
    objectText: 'frailty',
    organism: null,
    direction: null,
    createdAt: new Date('2026-10-03T00:00:00Z'),
  })
  // Three claims inside one millisecond, in an order their ids contradict.
  await add('c5', { paperId: 'MED-305', organism: 'mus musculus' })
  await add('c6', {
    paperId: 'PPR-30',
    subjectText: 'caloric restriction',
    relation: 'protects_against',
    objectText: 'mortality at 50 weeks',
    organism: 'Mus musculus domesticus',
  })
  await add('c7', {
    paperId: 'MED-301',
    subjectText: 'NAD+',
    relation: 'increases',
    objectText: 'ratio A\\B',
    organism: 'Saccharomyces cerevisiae',
  })
  await setClaimCreatedAt(db, claimIds.c5, '2026-10-02T06:05:00.123456Z')
  await setClaimCreatedAt(db, claimIds.c6, '2026-10-02T06:05:00.123789Z')
  await setClaimCreatedAt(db, claimIds.c7, '2026-10-02T06:05:00.123123Z')
})
afterAll(async () => {
  await database.close()
})

const names = (body: { data: { id: number }[] }) =>
  body.data.map((c) => Object.keys(claimIds).find((k) => claimIds[k] === c.id))
const ALL = ['c2', 'c1', 'c3', 'c4', 'c6', 'c5', 'c7']
const list = async (query: string) => names((await get(`/api/v1/claims${query}`)).body)

describe('GET /api/v1/claims', () => {
  test('lists claims newest first, then by id descending, to the microsecond', async () => {
    const { status, body, headers } = await get('/api/v1/claims')
    expect(status).toBe(200)
    expect(names(body)).toEqual(ALL)
    expect(body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 25 })
    expect(headers.get('cache-control')).toBe('private, max-age=60')
  })

  test('serves every field of Claim plus its paper', async () => {
    const { body } = await get('/api/v1/claims?limit=2')
    expect(body.data[1]).toEqual({
      id: claimIds.c1,
      paper_id: 'MED-301',
      subject: { text: 'rapamycin', entity: { type: 'intervention', key: 'CHEBI:9168', name: 'rapamycin' } },
      relation: 'extends_lifespan',
      object: { text: 'median lifespan', entity: { type: 'phenotype', key: 'lifespan', name: 'Lifespan' } },
      organism: 'Mus musculus',
      context: { sex: 'male', n: 40 },
      direction: 'increase',
      magnitude: '12%',
      evidence: EVIDENCE,
      confidence: 0.8,
      created_at: '2026-10-05T10:00:00.000Z',
      paper: {
        id: 'MED-301',
        title: rows[0].title,
        doi: rows[0].doi,
        journal: 'Aging Cell',
        published_date: '2026-10-01',
        preprint: false,
        url: rows[0].url,
        site_url: 'https://geroscope.test/papers/MED-301',
      },
    })
    expect(body.data[0]).toEqual({
      id: claimIds.c2,
      paper_id: 'MED-302',
      subject: { text: 'sirolimus', entity: { type: 'intervention', key: 'CHEBI:9168', name: 'rapamycin' } },
      relation: 'decreases',
      object: { text: 'mTORC1 activity', entity: { type: 'gene', key: 'HGNC:3942', name: 'MTOR' } },
      organism: 'Homo sapiens',
      context: null,
      direction: 'decrease',
      magnitude: null,
      evidence: null,
      confidence: null,
      created_at: '2026-10-05T10:00:00.000Z',
      paper: {
        id: 'MED-302',
        title: rows[1].title,
        doi: null,
        journal: 'Aging Cell',
        published_date: '2026-10-01',
        preprint: false,
        url: 'https://europepmc.org/article/MED/302',
        site_url: 'https://geroscope.test/papers/MED-302',
      },
    })
    const preprint = (await get('/api/v1/claims?paper_id=PPR-30')).body.data[0]
    expect(preprint.paper).toEqual({
      id: 'PPR-30',
      title: rows[5].title,
      doi: rows[5].doi,
      journal: 'bioRxiv',
      published_date: null,
      preprint: true,
      url: rows[5].url,
      site_url: 'https://geroscope.test/papers/PPR-30',
    })
    expect(preprint.created_at).toBe('2026-10-02T06:05:00.123Z')
  })

  test("evidence follows the paper's abstract licence", async () => {
    const { body } = await get('/api/v1/claims')
    const evidence = Object.fromEntries(
      body.data.map((c: { paper: { id: string }; evidence: string | null }) => [c.paper.id, c.evidence]),
    )
    expect(evidence).toEqual({
      'MED-301': EVIDENCE,
      'MED-305': EVIDENCE,
      'PPR-30': EVIDENCE,
      'MED-302': null,
      'MED-303': null,
      'MED-304': null,
    })
  })

  test("subject matches the text, or the entity's name or key, case-insensitively", async () => {
    expect(await list('?subject=rapamycin')).toEqual(['c2', 'c1', 'c5'])
    expect(await list('?subject=RAPAMYCIN')).toEqual(['c2', 'c1', 'c5'])
    expect(await list('?subject=Sirolimus')).toEqual(['c2'])
    // The key names rapamycin: its claims, and the unresolved subjects that write one of its names (c5: "rapamycin").
    expect(await list('?subject=chebi:9168')).toEqual(['c2', 'c1', 'c5'])
    expect(await list('?subject=lifespan')).toEqual([])
  })

  test('object matches the same way', async () => {
    expect(await list('?object=lifespan')).toEqual(['c1', 'c5'])
    expect(await list('?object=hgnc')).toEqual(['c2'])
    expect(await list('?object=mtor')).toEqual(['c2'])
    expect(await list('?object=Frailty')).toEqual(['c4'])
  })

  test('subject and object take %, _ and \\ literally', async () => {
    expect(await list('?subject=_6')).toEqual(['c4'])
    expect(await list('?subject=l_6')).toEqual(['c4'])
    expect(await list('?object=50%25')).toEqual(['c3'])
    expect(await list('?object=%25')).toEqual(['c3'])
    expect(await list('?object=%5C')).toEqual(['c7'])
    expect(await list('?object=A%5CB')).toEqual(['c7'])
    expect(await list('?organism=%25')).toEqual([])
  })

  test('relation is exact', async () => {
    expect(await list('?relation=extends_lifespan')).toEqual(['c1', 'c5'])
    expect(await list('?relation=increases')).toEqual(['c3', 'c7'])
    expect(await list('?relation=EXTENDS_LIFESPAN')).toEqual([])
    expect(await list('?relation=extends')).toEqual([])
    expect(await list('?relation=extends%25')).toEqual([])
  })

  test('organism is a case-insensitive substring', async () => {
    expect(await list('?organism=mus%20musculus')).toEqual(['c1', 'c6', 'c5'])
    expect(await list('?organism=SAPIENS')).toEqual(['c2'])
    expect(await list('?organism=elegans')).toEqual(['c3'])
  })

  test('paper_id is exact and accepted case-insensitively', async () => {
    expect(await list('?paper_id=MED-301')).toEqual(['c1', 'c7'])
    expect(await list('?paper_id=med-301')).toEqual(['c1', 'c7'])
    expect(await list('?paper_id=ppr-30')).toEqual(['c6'])
    expect(await list('?paper_id=MED-30')).toEqual([])
    expect(await list('?paper_id=MED-999999')).toEqual([])
  })

  test('filters combine', async () => {
    expect(await list('?subject=rapamycin&relation=extends_lifespan&organism=musculus')).toEqual(['c1', 'c5'])
    expect(await list('?subject=rapamycin&object=lifespan&paper_id=MED-305')).toEqual(['c5'])
    expect(await list('?subject=rapamycin&relation=increases')).toEqual([])
  })

  test('paging walks the whole list with no duplicates and no gaps, through ties and within one millisecond', async () => {
    for (const limit of [1, 2, 3]) {
      const pages = await walk(get, `/api/v1/claims?limit=${limit}`)
      expect(pages.flatMap(names)).toEqual(ALL)
      expect(pages).toHaveLength(Math.ceil(ALL.length / limit))
      for (const page of pages) {
        expect(page.pagination.limit).toBe(limit)
        expect(page.pagination.has_more).toBe(page.pagination.next_cursor !== null)
      }
    }
    expect((await walk(get, '/api/v1/claims?subject=rapamycin&limit=1')).flatMap(names)).toEqual(['c2', 'c1', 'c5'])
    expect((await walk(get, '/api/v1/claims?organism=mus&limit=1')).flatMap(names)).toEqual(['c1', 'c6', 'c5'])
  })

  test("a side filter's pages of 1 and 2 join up into its page of 100", async () => {
    for (const query of ['subject=i', 'object=a', 'subject=rapamycin&object=i']) {
      const all = await list(`?${query}&limit=100`)
      expect(all.length).toBeGreaterThanOrEqual(2)
      expect(all).toEqual(ALL.filter((c) => all.includes(c)))
      for (const limit of [1, 2])
        expect((await walk(get, `/api/v1/claims?${query}&limit=${limit}`)).flatMap(names)).toEqual(all)
    }
  })

  test('a cursor is good for another limit, and for paper_id in another case', async () => {
    const first = (await get('/api/v1/claims?limit=2')).body
    expect(await list(`?limit=100&cursor=${first.pagination.next_cursor}`)).toEqual(ALL.slice(2))
    const byPaper = (await get('/api/v1/claims?paper_id=med-301&limit=1')).body
    expect(await list(`?paper_id=MED-301&cursor=${byPaper.pagination.next_cursor}`)).toEqual(['c7'])
  })

  test('a cursor stays valid while new claims arrive, without duplicates or gaps', async () => {
    const first = (await get('/api/v1/claims?limit=3')).body
    const added = await insertClaim(database.db, { paperId: 'MED-301', createdAt: new Date('2026-10-06T00:00:00Z') })
    try {
      const second = (await get(`/api/v1/claims?limit=3&cursor=${first.pagination.next_cursor}`)).body
      expect([...names(first), ...names(second)]).toEqual(ALL.slice(0, 6))
    } finally {
      await database.db.delete(claims).where(eq(claims.id, added.id))
    }
  })
})
