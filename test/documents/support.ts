/** Comparing every stored paper document with a fresh build from the rows (issue 39). */
import { expect } from 'bun:test'
import { asc } from 'drizzle-orm'
import type { Db } from '../../src/db/client'
import { paperDocuments } from '../../src/db/schema'
import { documentText } from '../../src/documents/papers'
import { getPaperDetail } from '../../src/resources/papers/queries'
import { serializePaperDetail } from '../../src/resources/papers/detail'
import type { MappedPaper } from '../../src/pipeline/ingest/europepmc/mapping'

export const BASE = 'https://geroscope.test'

/**
 * Every stored body equals the document built now from the rows (for two bases); a NULL body is stale and
 * allowed unless `allFresh`. Returns how many bodies were compared.
 */
export async function expectDocumentsConsistent(db: Db, options: { allFresh?: boolean } = {}): Promise<number> {
  const rows = await db.select().from(paperDocuments).orderBy(asc(paperDocuments.paperId))
  let compared = 0
  for (const row of rows) {
    if (row.body === null) {
      if (options.allFresh) expect(`${row.paperId}: stale`).toBe(`${row.paperId}: fresh`)
      continue
    }
    const detail = await getPaperDetail(db, row.paperId)
    expect(detail).not.toBeNull()
    if (row.body === '') continue // served live by design (its text writes the base's mark)
    for (const base of [BASE, 'http://other.example:8080/x"y']) {
      const fresh = JSON.stringify(serializePaperDetail(detail!, base))
      if (documentText(row.body, base) !== fresh)
        expect(`${row.paperId}: ${documentText(row.body, base)}`).toBe(`${row.paperId}: ${fresh}`)
    }
    compared++
  }
  return compared
}

/** A harvested record, as the Europe PMC mapping leaves it. */
export function harvested(n: number, overrides: Partial<MappedPaper> = {}): MappedPaper {
  return {
    id: `MED-${900000 + n}`,
    source: 'MED',
    doi: `10.1000/doc.${n}`,
    title: n % 2 ? 'Rapamycin extends lifespan in aged mice' : 'Senolytic treatment reduces frailty in older adults',
    authors: 'Smith A, Lee B',
    journal: 'Nature Aging',
    publishedDate: '2026-10-01',
    indexedDate: `2026-10-${String(1 + (n % 20)).padStart(2, '0')}`,
    preprint: false,
    publicationTypes: ['Journal Article'],
    url: `https://doi.org/10.1000/doc.${n}`,
    abstract:
      n % 2
        ? 'Here we treated 40 male C57BL/6J mice aged 20 months with rapamycin (14 ppm in the diet) for 12 weeks. Rapamycin extended median lifespan by 12% and reduced SASP expression in the liver. mTOR signalling was inhibited by rapamycin.'
        : 'In a randomised trial of 60 older adults, dasatinib plus quercetin reduced p16-positive senescent cells and improved gait speed. Frailty scores decreased with treatment.',
    abstractLicense: n % 3 === 0 ? 'cc by-nc' : 'cc by',
    meshHeadings: [
      { descriptor: 'Aging', major: true, qualifiers: [] },
      { descriptor: 'Mice', major: false, qualifiers: [] },
    ],
    keywords: ['aging'],
    chemicals: [{ name: 'Sirolimus', registry: 'W36ZG6FT64' }],
    ...overrides,
  }
}
