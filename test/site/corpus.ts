/** A small site corpus: papers with judgements, stories (enough to page a topic), an entity with identifiers, claims. */
import type { Db } from '../../src/db/client'
import { insertClaim, insertEntity, insertPapers, insertStory, linkEntity, paperRow } from '../support/fixtures'

export const STORIES_IN_SENESCENCE = 23 // more than one page of 20

export async function seedSite(db: Db) {
  await insertPapers(db, [
    paperRow({
      id: 'MED-1',
      topic: 'mtor-rapamycin',
      title: 'Rapamycin <b>extends</b> lifespan in mice',
      doi: '10.1000/rapa.1',
      publishedDate: '2026-09-30',
      abstract: 'An open abstract about rapamycin.',
      abstractLicense: 'cc by',
    }),
    paperRow({
      id: 'MED-2',
      topic: 'mtor-rapamycin',
      abstractLicense: 'cc by-nc',
      abstract: 'Secret non-commercial abstract.',
      relevance: null,
      judgedAt: null,
      judgementModel: null,
    }),
    ...Array.from({ length: STORIES_IN_SENESCENCE }, (_, i) =>
      paperRow({ id: `MED-${100 + i}`, topic: 'senescence', title: `Senolytic paper ${i}` }),
    ),
  ])
  await insertStory(db, 'MED-1', { headline: 'Rapamycin & the mouse', dek: 'Mice lived longer.' })
  for (let i = 0; i < STORIES_IN_SENESCENCE; i++) {
    await insertStory(db, `MED-${100 + i}`, {
      headline: `Clearing old cells, part ${i}`,
      publishedAt: new Date(Date.UTC(2026, 9, 1, 8, i)),
    })
  }
  const rapamycin = await insertEntity(db, 'intervention', 'rapamycin', 'Rapamycin', {
    pubchem: '5284616',
    chebi: 'CHEBI:9168',
  })
  const mouse = await insertEntity(db, 'organism', 'NCBITaxon:10090', 'Mouse', { taxon: '10090' })
  await linkEntity(db, 'MED-1', '2026-10-02', rapamycin.id, 'intervention')
  await linkEntity(db, 'MED-1', '2026-10-02', mouse.id, 'model_organism')
  await insertClaim(db, {
    paperId: 'MED-1',
    subjectText: 'rapamycin',
    subjectEntityId: rapamycin.id,
    relation: 'extends_lifespan',
    objectText: 'lifespan',
  })
  return { rapamycin, mouse }
}
