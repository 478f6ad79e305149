/**
 * GET /api/v1/evidence: claims about one question grouped by organism and direction, each
 * claim in one group, the counts equal to what /api/v1/claims lists for the same filters, the papers
 * strongest evidence first; unknown subjects 404, bad parameters 400.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { entities } from '../../../src/db/schema'
import { freshDatabase, type TestDatabase } from '../../support/database'
import { req } from '../../support/app'
import { createTestKey, insertClaim, insertPapers, paperRow } from '../../support/fixtures'
import { getter, insertCountedEntity, knowledgeApp, walk } from '../../support/fixtures-knowledge'

let database: TestDatabase
let key: string
let app: Awaited<ReturnType<typeof knowledgeApp>>
let get: ReturnType<typeof getter>

const unjudged = {
  studyType: null,
  relevance: null,
  relevanceConfidence: null,
  studyTypeConfidence: null,
  judgedAt: null,
  judgementModel: null,
}
const PAPERS = [
  paperRow({ id: 'MED-601', studyType: 'human_trial', relevance: 2.0, publishedDate: '2025-01-01' }),
  paperRow({
    id: 'MED-602',
    studyType: 'animal',
    relevance: 2.9,
    publishedDate: '2026-01-01',
    abstractLicense: 'cc by-nc',
  }),
  paperRow({ id: 'MED-603', studyType: 'animal', relevance: 2.9, publishedDate: '2026-05-01' }),
  paperRow({ id: 'MED-604', studyType: 'invertebrate', relevance: 2.5 }),
  paperRow({ id: 'MED-605', studyType: 'cells', relevance: 3 }),
  paperRow({ id: 'MED-606', studyType: 'computational', relevance: 3 }),
  paperRow({ id: 'MED-607', studyType: 'review', relevance: 3 }),
  paperRow({ id: 'MED-608', ...unjudged }),
  paperRow({ id: 'MED-609', studyType: 'animal', relevance: 2.2 }),
]

beforeAll(async () => {
  database = await freshDatabase()
  const db = database.db
  key = (await createTestKey(db, { tier: 'pro' })).key
  app = await knowledgeApp(database)
  get = getter(app, () => key)
  await insertPapers(db, PAPERS)
  const rapamycin = await insertCountedEntity(db, 'intervention', 'CHEBI:9168', 'rapamycin', 8)
  await db
    .update(entities)
    .set({ aliases: ['rapamycin', 'sirolimus'] })
    .where(eq(entities.id, rapamycin.id))
  const temsirolimus = await insertCountedEntity(db, 'intervention', 'CHEBI:79699', 'temsirolimus', 1)
  const lifespan = await insertCountedEntity(db, 'phenotype', 'lifespan', 'Lifespan', 8)
  const mtor = await insertCountedEntity(db, 'gene', 'HGNC:3942', 'MTOR', 1)
  const claim = (
    paperId: string,
    values: Parameters<typeof insertClaim>[1] extends infer V ? Partial<V> : never = {},
  ) => insertClaim(db, { paperId, subjectEntityId: rapamycin.id, objectEntityId: lifespan.id, ...values })
  // Mouse, increase: eight claims from seven papers (MED-602 twice), of every study type.
  for (const id of ['MED-608', 'MED-607', 'MED-606', 'MED-605', 'MED-603', 'MED-602', 'MED-601']) await claim(id)
  await claim('MED-602', { subjectText: 'Sirolimus', objectText: 'median lifespan' })
  // Worms, increase: written as an alias.
  await claim('MED-604', { subjectText: 'sirolimus', organism: 'Caenorhabditis elegans' })
  // Mouse, no change.
  await claim('MED-602', { direction: 'no_change', relation: 'no_effect_on' })
  // No organism, no direction: the subject and object left unresolved, matched by their text as /claims matches them.
  await claim('MED-607', {
    subjectEntityId: null,
    subjectText: 'low-dose rapamycin',
    objectEntityId: null,
    objectText: 'lifespan of males',
    organism: null,
    direction: null,
  })
  // Not about the question: another drug that contains the name, and another object.
  await claim('MED-609', { subjectEntityId: temsirolimus.id, subjectText: 'temsirolimus' })
  await claim('MED-609', {
    objectEntityId: mtor.id,
    objectText: 'mTORC1 activity',
    relation: 'decreases',
    direction: 'decrease',
  })
})
afterAll(async () => {
  await database.close()
})

type Group = {
  organism: string | null
  direction: string | null
  claim_count: number
  paper_count: number
  study_types: string[]
  papers: { id: string }[]
}

const evidence = async (query: string) => get(`/api/v1/evidence?${query}`)
const summary = (groups: Group[]) => groups.map((g) => [g.organism, g.direction, g.claim_count, g.paper_count])

/** What /api/v1/claims lists for the same filters, grouped as evidence groups them: [organism, direction] -> claim ids. */
async function claimsGrouped(query: string) {
  const pages = await walk(get, `/api/v1/claims?${query}&limit=100`)
  const groups = new Map<string, { claims: number; papers: Set<string> }>()
  for (const c of pages.flatMap((p) => p.data)) {
    const k = JSON.stringify([c.organism, c.direction])
    const g = groups.get(k) ?? { claims: 0, papers: new Set<string>() }
    g.claims++
    g.papers.add(c.paper_id)
    groups.set(k, g)
  }
  return new Map([...groups].map(([k, g]) => [k, [g.claims, g.papers.size]]))
}

describe('GET /api/v1/evidence', () => {
  test('rapamycin and lifespan: groups by organism and direction, most claims first', async () => {
    const { status, body, headers } = await evidence('subject=rapamycin&object=lifespan')
    expect(status).toBe(200)
    expect(headers.get('cache-control')).toBe('private, max-age=60')
    expect(body.data.subject).toEqual({
      text: 'rapamycin',
      entities: [{ type: 'intervention', key: 'CHEBI:9168', name: 'rapamycin' }],
    })
    expect(body.data.object).toEqual({
      text: 'lifespan',
      entities: [{ type: 'phenotype', key: 'lifespan', name: 'Lifespan' }],
    })
    expect(summary(body.data.groups)).toEqual([
      ['Mus musculus', 'increase', 8, 7],
      ['Caenorhabditis elegans', 'increase', 1, 1],
      ['Mus musculus', 'no_change', 1, 1],
      [null, null, 1, 1],
    ])
  })

  test('every claim once, and the counts are what /claims lists for the same filters', async () => {
    for (const [question, filters] of [
      ['subject=rapamycin&object=lifespan', 'subject=rapamycin&object=lifespan'],
      ['subject=sirolimus&object=lifespan&organism=mice', 'subject=sirolimus&object=lifespan&organism=mice'],
      ['subject=rapamycin&object=mTORC1', 'subject=rapamycin&object=mTORC1'],
      ['subject=temsirolimus&object=lifespan', 'subject=temsirolimus&object=lifespan'],
    ]) {
      const { body } = await evidence(question)
      const listed = await claimsGrouped(filters)
      const answered = new Map(
        body.data.groups.map((g: Group) => [JSON.stringify([g.organism, g.direction]), [g.claim_count, g.paper_count]]),
      )
      expect(answered).toEqual(listed)
      const total = (await get(`/api/v1/claims?${filters}&count=true&limit=1`)).body.pagination.total
      expect(body.data.groups.reduce((n: number, g: Group) => n + g.claim_count, 0)).toBe(total)
    }
  })

  test('the subject by key, name or any alias in any case, never a longer word containing it', async () => {
    const resolved = summary((await evidence('subject=rapamycin&object=lifespan')).body.data.groups).filter(
      ([organism]) => organism !== null,
    )
    for (const subject of ['sirolimus', 'SIROLIMUS', 'Rapamycin', 'CHEBI:9168', 'chebi%3A9168']) {
      const { status, body } = await evidence(`subject=${subject}&object=lifespan`)
      expect(status).toBe(200)
      expect(body.data.subject.entities.map((e: { key: string }) => e.key)).toEqual(['CHEBI:9168'])
      // The claims of the entity whatever name is asked, and, as /claims, an unresolved subject holding any of its
      // names as a whole word ("low-dose rapamycin"), whichever of them was asked.
      expect(summary(body.data.groups)).toEqual([...resolved, [null, null, 1, 1]])
    }
    // temsirolimus contains sirolimus, and is its own drug with its own single claim.
    const tem = await evidence('subject=temsirolimus&object=lifespan')
    expect(summary(tem.body.data.groups)).toEqual([['Mus musculus', 'increase', 1, 1]])
    expect(tem.body.data.groups[0].papers.map((p: { id: string }) => p.id)).toEqual(['MED-609'])
  })

  test('papers: at most five, strongest evidence first, as PaperRef under the licensing rule', async () => {
    const { body } = await evidence('subject=rapamycin&object=lifespan')
    const [mouse] = body.data.groups as Group[]
    // Trial, then the two animal studies (equal relevance: the newer first), then cells, then computational; review and unjudged left over.
    expect(mouse.papers.map((p) => p.id)).toEqual(['MED-601', 'MED-603', 'MED-602', 'MED-605', 'MED-606'])
    expect(mouse.study_types).toEqual(['human_trial', 'animal', 'cells', 'computational', 'review'])
    const paper = mouse.papers[0] as Record<string, unknown>
    expect(Object.keys(paper).sort()).toEqual(
      [
        'abstract',
        'abstract_license',
        'authors',
        'doi',
        'id',
        'indexed_date',
        'journal',
        'judgement',
        'preprint',
        'publication_types',
        'published_date',
        'site_url',
        'source',
        'title',
        'url',
      ].sort(),
    )
    expect(paper.site_url).toBe('https://geroscope.test/papers/MED-601')
    expect((paper.judgement as { study_type: string }).study_type).toBe('human_trial')
    const nc = mouse.papers.find((p) => p.id === 'MED-602') as Record<string, unknown>
    expect(nc.abstract).toBeNull() // cc by-nc: withheld
  })

  test('organism and study_type narrow the claims', async () => {
    const mice = await evidence('subject=rapamycin&object=lifespan&organism=Mus%20musculus')
    expect(summary(mice.body.data.groups)).toEqual([
      ['Mus musculus', 'increase', 8, 7],
      ['Mus musculus', 'no_change', 1, 1],
    ])
    const worms = await evidence('subject=rapamycin&object=lifespan&organism=C.%20elegans')
    expect(summary(worms.body.data.groups)).toEqual([['Caenorhabditis elegans', 'increase', 1, 1]])
    const animal = await evidence('subject=rapamycin&object=lifespan&study_type=animal,human_trial')
    expect(summary(animal.body.data.groups)).toEqual([
      ['Mus musculus', 'increase', 4, 3],
      ['Mus musculus', 'no_change', 1, 1],
    ])
    expect(animal.body.data.groups[0].study_types).toEqual(['human_trial', 'animal'])
    const none = await evidence('subject=rapamycin&object=lifespan&study_type=computational&organism=worms')
    expect(none.status).toBe(200)
    expect(none.body.data.groups).toEqual([])
  })

  test('a subject that names no entity is a 404 naming it', async () => {
    for (const subject of ['unobtainium', 'rapa', 'olimus']) {
      const { status, body } = await evidence(`subject=${subject}&object=lifespan`)
      expect(status).toBe(404)
      expect(body.error.code).toBe('not_found')
      expect(body.error.message).toContain(`"${subject}"`)
    }
  })

  test('missing, empty, oversized and unknown parameters are 400s naming the parameter', async () => {
    const cases: [string, string][] = [
      ['object=lifespan', 'subject is required'],
      ['subject=rapamycin', 'object is required'],
      ['subject=&object=lifespan', 'subject must not be empty'],
      ['subject=rapamycin&object=%20%20', 'object must not be empty'],
      [`subject=${'r'.repeat(201)}&object=lifespan`, 'subject must be at most 200 characters'],
      ['subject=rapamycin&object=lifespan&study_type=anecdote', 'study_type has unknown value "anecdote"'],
      ['subject=rapamycin&object=lifespan&organism=unicorn', 'organism "unicorn" is not an organism the service knows'],
      ['subject=rapamycin&object=lifespan&organism=', 'organism must not be empty'],
      ['subject=rapamycin&object=lifespan&relation=increases', 'unknown parameter "relation"'],
      ['subject=rapamycin&subject=sirolimus&object=lifespan', 'subject is given more than once'],
    ]
    for (const [query, message] of cases) {
      const { status, body } = await evidence(query)
      expect({ query, status, code: body.error?.code }).toEqual({ query, status: 400, code: 'invalid_parameter' })
      expect(body.error.message).toContain(message)
    }
  })

  test('hostile values are parameters, not SQL', async () => {
    const { status, body } = await evidence(`subject=rapamycin&object=${encodeURIComponent("lifespan' or 1=1 --")}`)
    expect(status).toBe(200)
    expect(body.data.groups).toEqual([])
  })

  test('needs a key, like every /api/v1 route', async () => {
    const response = await app.handle(req('/api/v1/evidence?subject=rapamycin&object=lifespan'))
    expect(response.status).toBe(401)
    expect((await response.json()).error.code).toBe('missing_key')
  })
})
