/** Comparing every stored paper document with a fresh build from the rows (issue 39). */
import { expect } from 'bun:test'
import { asc } from 'drizzle-orm'
import type { Db } from '../../src/db/client'
import { paperDocuments } from '../../src/db/schema'
import { documentText } from '../../src/documents/papers'
import { getPaperDetail, PAPER_LIST_FROM, type PaperListTextRow } from '../../src/resources/papers/queries'
import { serializePaperDetail } from '../../src/resources/papers/detail'
import { serializeListedPaper } from '../../src/resources/papers/serialize'
import { STORY_ROW_FROM, storyListRow, type StoryPageRow } from '../../src/resources/stories/queries'
import { serializeStoryItem } from '../../src/resources/stories/serialize'
import { preparedStatement } from '../../src/queries/prepared'
import { OPEN_LICENSES } from '../../src/taxonomy'
import type { MappedPaper } from '../../src/pipeline/ingest/europepmc/mapping'

export const BASE = 'https://geroscope.test'

/** The paper as the live /papers and /stories pages read it (their statements, one paper). */
const listRow = preparedStatement<PaperListTextRow>(`${PAPER_LIST_FROM} where p.id = $?`)
const storyRow = preparedStatement<StoryPageRow>(`${STORY_ROW_FROM} where s.paper_id = $?`)

const BASES = [BASE, 'http://other.example:8080/x"y']

/** `stored` (with the base's mark) equals `fresh(base)` for both bases; '' (served live) passes. */
function expectStored(what: string, stored: string, fresh: (base: string) => unknown) {
  if (stored === '') return // served live by design (its text writes the base's mark)
  for (const base of BASES) {
    const built = JSON.stringify(fresh(base))
    if (documentText(stored, base) !== built) expect(`${what}: ${documentText(stored, base)}`).toBe(`${what}: ${built}`)
  }
}

/**
 * Every stored body and list item equals the one built now from the rows by the live paths' serializers (for two
 * bases); a NULL body is stale and allowed unless `allFresh`, and its items must be NULL with it. Returns how many
 * documents were compared.
 */
export async function expectDocumentsConsistent(db: Db, options: { allFresh?: boolean } = {}): Promise<number> {
  const rows = await db.select().from(paperDocuments).orderBy(asc(paperDocuments.paperId))
  const licences = [...OPEN_LICENSES]
  let compared = 0
  for (const row of rows) {
    if (row.body === null) {
      if (options.allFresh) expect(`${row.paperId}: stale`).toBe(`${row.paperId}: fresh`)
      // An item is never fresher than its body.
      expect({ paper: row.paperId, item: row.item, storyItem: row.storyItem }).toEqual({
        paper: row.paperId,
        item: null,
        storyItem: null,
      })
      continue
    }
    const detail = await getPaperDetail(db, row.paperId)
    expect(detail).not.toBeNull()
    expectStored(`${row.paperId} body`, row.body, (base) => serializePaperDetail(detail!, base))
    const [listed] = await listRow(db, [licences, row.paperId])
    expect(row.item).not.toBeNull()
    expectStored(`${row.paperId} item`, row.item!, (base) => serializeListedPaper(listed, base))
    const [story] = await storyRow(db, [licences, row.paperId])
    if (!story) expect(`${row.paperId} story item: ${row.storyItem}`).toBe(`${row.paperId} story item: null`)
    else {
      expect(row.storyItem).not.toBeNull()
      expectStored(`${row.paperId} story item`, row.storyItem!, (base) => serializeStoryItem(storyListRow(story), base))
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
