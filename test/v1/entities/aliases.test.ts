/**
 * Names people search for, end to end: real abstracts through the built-in analyzer into the
 * database, then through the Data API. Synonyms and aliases resolve to one entity (sirolimus and
 * rapamycin; p16, p16INK4a and CDKN2A; NR and nicotinamide riboside; mouse and mice), and a name
 * never matches a different drug that merely contains it (temsirolimus).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { builtinAnalyzer } from '../../../src/pipeline/analysis/builtin-analyzer'
import { runAnalysis } from '../../../src/pipeline/analysis/pipeline'
import { refreshEntityCounts } from '../../../src/jobs/refresh-entity-counts'
import { freshDatabase, type TestDatabase } from '../../support/database'
import { createTestKey, insertPapers, paperRow } from '../../support/fixtures'
import { getter, knowledgeApp, walk } from '../../support/fixtures-knowledge'

let database: TestDatabase
let key: string
let get: ReturnType<typeof getter>

const paper = (id: string, title: string, abstract: string) =>
  paperRow({
    id,
    title,
    abstract,
    abstractLicense: 'cc by',
    meshHeadings: [],
    keywords: [],
    chemicals: [],
    publicationTypes: ['Journal Article'],
    judgedAt: null,
    extractedAt: null,
  })

const PAPERS = [
  paper(
    'MED-501',
    'Sirolimus extends lifespan in aged mice',
    'Aging is a major risk factor for disease. We fed sirolimus to 40 male mice from 20 months of age. ' +
      'Sirolimus extended median lifespan by 14% in male mice. Rapamycin also reduced mTOR signalling in the liver.',
  ),
  paper(
    'MED-502',
    'Temsirolimus in a mouse model of renal cancer',
    'Temsirolimus is an mTOR inhibitor used in renal cell carcinoma. We treated tumour-bearing mice with temsirolimus. ' +
      'Temsirolimus reduced tumour growth by 40% in mice. Temsirolimus extended survival of mice by 20%.',
  ),
  paper(
    'MED-503',
    'Nicotinamide riboside raises NAD+ in old mice',
    'NAD+ declines with age. We gave nicotinamide riboside (NR) to aged mice for 8 weeks. ' +
      'NR increased muscle NAD+ levels by 60% in aged mice. NR also improved grip strength in old mice.',
  ),
  paper(
    'MED-504',
    'p16INK4a-positive cells shorten healthy lifespan',
    'Senescent cells accumulate with age. Cells expressing p16INK4a were removed in transgenic mice. ' +
      'p16 increased with age in the kidney of mice. Clearance of p16-positive cells extended median lifespan by 25% in mice.',
  ),
]

beforeAll(async () => {
  database = await freshDatabase()
  const db = database.db
  await insertPapers(db, PAPERS)
  await runAnalysis(db, builtinAnalyzer())
  await refreshEntityCounts(db)
  key = (await createTestKey(db, { tier: 'pro' })).key
  get = getter(await knowledgeApp(database), () => key)
})
afterAll(async () => {
  await database.close()
})

const entityKeys = async (query: string) =>
  (await walk(get, `/api/v1/entities?${query}&limit=100`)).flatMap((b) =>
    b.data.map((e: { type: string; key: string }) => `${e.type}/${e.key}`),
  )
type Side = { text: string; entity: { type: string; key: string } | null }
const claimsFor = async (query: string) =>
  (await walk(get, `/api/v1/claims?${query}&limit=100`)).flatMap(
    (b) => b.data as { paper_id: string; subject: Side; object: Side; organism: string | null }[],
  )

describe('entities people search for', () => {
  test('/entities?q=p16 finds CDKN2A, and so do p16INK4a and CDKN2A', async () => {
    for (const q of ['p16', 'p16INK4a', 'CDKN2A', 'cdkn2a'])
      expect(await entityKeys(`q=${q}`)).toContain('gene/NCBIGene:1029')
  })

  test('/entities?q=sirolimus finds rapamycin', async () => {
    expect(await entityKeys('q=sirolimus')).toContain('intervention/CHEBI:9168')
  })

  test('mouse and mice are one organism entity', async () => {
    const organisms = await entityKeys('type=organism&q=m')
    expect(organisms.filter((k) => /10090/.test(k))).toEqual(['organism/NCBITaxon:10090'])
    expect(await entityKeys('type=organism&q=mice')).toEqual(['organism/NCBITaxon:10090'])
    expect(await entityKeys('type=organism&q=mouse')).toContain('organism/NCBITaxon:10090')
  })
})

describe('claims about what a name means', () => {
  test('/claims?subject=sirolimus returns the rapamycin claims and no temsirolimus claim', async () => {
    const found = await claimsFor('subject=sirolimus')
    expect(found.length).toBeGreaterThan(0)
    expect(
      found.every(
        (c) =>
          c.subject.entity?.key === 'CHEBI:9168' || (c.subject.entity === null && /sirolimus/i.test(c.subject.text)),
      ),
    ).toBe(true)
    expect(found.some((c) => /temsirolimus/i.test(c.subject.text))).toBe(false)
    expect(found.map((c) => c.paper_id)).toContain('MED-501')
  })

  test('rapamycin and sirolimus find the same claims', async () => {
    const ids = async (q: string) => (await claimsFor(q)).map((c) => JSON.stringify(c)).sort()
    expect(await ids('subject=rapamycin')).toEqual(await ids('subject=sirolimus'))
  })

  test('temsirolimus is asked for by its own name', async () => {
    const found = await claimsFor('subject=temsirolimus')
    expect(found.length).toBeGreaterThan(0)
    expect(found.every((c) => c.paper_id === 'MED-502')).toBe(true)
    expect(found.every((c) => c.subject.entity?.key !== 'CHEBI:9168')).toBe(true)
  })

  test('NR resolves to nicotinamide riboside as a claim subject', async () => {
    const byAbbreviation = await claimsFor('subject=NR')
    expect(byAbbreviation.length).toBeGreaterThan(0)
    expect(byAbbreviation.every((c) => c.subject.entity?.key === 'CHEBI:15927')).toBe(true)
    expect(byAbbreviation.some((c) => c.subject.text === 'NR')).toBe(true)
    expect((await claimsFor('subject=nicotinamide%20riboside')).map((c) => c.subject.text).sort()).toEqual(
      byAbbreviation.map((c) => c.subject.text).sort(),
    )
  })

  test('p16 claims are CDKN2A claims', async () => {
    const found = await claimsFor('subject=p16')
    expect(found.length).toBeGreaterThan(0)
    expect(found.every((c) => c.subject.entity?.key === 'NCBIGene:1029')).toBe(true)
    expect((await claimsFor('subject=CDKN2A')).length).toBe(found.length)
  })

  test('organism=mice finds the claims made in mice', async () => {
    const inMice = await claimsFor('organism=mice')
    expect(inMice.length).toBeGreaterThan(0)
    expect(inMice.every((c) => c.organism === 'Mus musculus')).toBe(true)
    expect((await claimsFor('organism=mouse')).length).toBe(inMice.length)
  })

  test('a value that names no entity is still a substring of the side', async () => {
    expect((await claimsFor('subject=sirolim')).map((c) => c.paper_id).sort()).toEqual(
      expect.arrayContaining(['MED-501', 'MED-502']),
    )
  })
})
