/**
 * data-api-v1.md, licensing rules: the abstract only under CC BY, CC0 or public domain (share-alike
 * withheld); a claim's evidence and an entity detail's mention and description follow the abstract.
 * Every licence value Europe PMC reports, each through /papers, /papers/{id}, /claims and the entity detail.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { req, useTestApp } from '../../support/app'
import { bearer, insertClaim, insertEntity, insertPapers, linkEntity, paperRow } from '../../support/fixtures'

const api = useTestApp()

const LICENCES: [string | null, boolean][] = [
  ['cc by', true],
  ['cc0', true],
  ['public domain', true],
  ['cc by-sa', false],
  ['cc by-nc', false],
  ['cc by-nd', false],
  ['cc by-nc-sa', false],
  ['cc by-nc-nd', false],
  [null, false], // none reported: all rights reserved
]
const idOf = (i: number) => `MED-${880000 + i}`

const get = async (path: string) => (await api.app.handle(req(path, bearer(api.key)))).json()

beforeAll(async () => {
  await insertPapers(
    api.database.db,
    LICENCES.map(([license], i) =>
      paperRow({
        id: idOf(i),
        abstract: `Abstract ${i}: rapamycin in mice.`,
        abstractLicense: license,
        indexedDate: '2026-10-02',
      }),
    ),
  )
  const rapamycin = await insertEntity(api.database.db, 'intervention', 'CHEBI:9168', 'rapamycin')
  for (let i = 0; i < LICENCES.length; i++) {
    await linkEntity(api.database.db, idOf(i), '2026-10-02', rapamycin.id, 'studied', {
      dose: '14 ppm',
      mention: `mention ${i}`,
      description: `description ${i}`,
    })
    await insertClaim(api.database.db, { paperId: idOf(i), evidence: `evidence ${i}` })
  }
})

describe.each(LICENCES.map(([license, reusable], i) => [String(license), reusable, i] as const))(
  'licence %s',
  (license, reusable, i) => {
    const id = idOf(i)
    const expected = {
      abstract_license: license === 'null' ? null : license,
      abstract: reusable ? `Abstract ${i}: rapamycin in mice.` : null,
    }

    test(`${reusable ? 'serves' : 'withholds'} the abstract in /papers and /papers/{id}`, async () => {
      const list = await get('/api/v1/papers?min_relevance=0&limit=100')
      expect(list.data.find((p: { id: string }) => p.id === id)).toMatchObject(expected)
      expect((await get(`/api/v1/papers/${id}`)).data).toMatchObject(expected)
    })

    test(`${reusable ? 'serves' : 'withholds'} claim evidence and entity mention and description`, async () => {
      const paper = (await get(`/api/v1/papers/${id}`)).data
      expect(paper.claims[0].evidence).toBe(reusable ? `evidence ${i}` : null)
      expect(paper.entities[0].detail).toEqual(
        reusable ? { dose: '14 ppm', mention: `mention ${i}`, description: `description ${i}` } : { dose: '14 ppm' },
      )
      const claims = await get(`/api/v1/claims?paper_id=${id}`)
      expect(claims.data.map((c: { evidence: string | null }) => c.evidence)).toEqual([
        reusable ? `evidence ${i}` : null,
      ])
    })
  },
)

test("the entity detail applies each paper's own licence", async () => {
  const detail = await get('/api/v1/entities/intervention/CHEBI%3A9168?min_relevance=0&limit=100')
  const byId = Object.fromEntries(detail.data.papers.map((p: { id: string }) => [p.id, p]))
  LICENCES.forEach(([, reusable], i) =>
    expect(byId[idOf(i)]).toMatchObject({ abstract: reusable ? `Abstract ${i}: rapamycin in mice.` : null }),
  )
})
