/**
 * Hand-made claims whose contradictions are known by construction (each row says why it is or is
 * not part of one), for the contradiction and gap tests.
 */
import type { Db } from '../../src/db/client'
import { insertClaim, insertEntity, insertPapers, linkEntity, paperRow } from '../support/fixtures'

export const NOW = new Date('2026-11-01T12:00:00Z')

export async function seedKnowledge(db: Db) {
  const rapamycin = await insertEntity(db, 'intervention', 'CHEBI:9168', 'rapamycin')
  const metformin = await insertEntity(db, 'intervention', 'CHEBI:6801', 'metformin')
  const exercise = await insertEntity(db, 'intervention', 'exercise', 'exercise')
  const lifespan = await insertEntity(db, 'phenotype', 'lifespan', 'lifespan')
  const il6 = await insertEntity(db, 'biomarker', 'il-6-level', 'IL-6 level')
  const paper = (id: string, over: Parameters<typeof paperRow>[0] = {}) =>
    paperRow({
      id,
      indexedDate: '2026-10-02',
      publishedDate: '2026-10-01',
      studyType: 'animal',
      topic: 'mtor-rapamycin',
      abstractLicense: 'cc by',
      ...over,
    })
  await insertPapers(db, [
    paper('MED-101'),
    paper('MED-102', { abstractLicense: 'cc by-nc' }),
    paper('MED-103'),
    paper('MED-104'),
    paper('MED-105'),
    paper('MED-106', { topic: 'dietary-restriction' }),
    paper('MED-107', { topic: 'dietary-restriction' }),
    paper('MED-108'),
    paper('MED-109'),
    paper('MED-110', { studyType: 'human_trial', topic: 'other', indexedDate: '2026-10-05' }),
    paper('MED-111', { studyType: 'human_trial', topic: 'other', indexedDate: '2026-10-20', abstractLicense: null }),
    paper('MED-112'),
    paper('MED-113', {
      studyType: 'human_trial',
      topic: 'dietary-restriction',
      title: 'Metformin in older adults: a trial',
    }),
  ])
  const rapa = { subjectText: 'rapamycin', subjectEntityId: rapamycin.id }
  const life = { objectText: 'lifespan', objectEntityId: lifespan.id }
  const il = { objectText: 'IL-6 levels', objectEntityId: il6.id }
  const claim = (paperId: string, values: Partial<Parameters<typeof insertClaim>[1]>) =>
    insertClaim(db, {
      paperId,
      evidence: `Evidence sentence of ${paperId}.`,
      confidence: 0.8,
      magnitude: null,
      ...values,
    })
  const claims = {
    // rapamycin and lifespan in mice: 101 up (male, 14 ppm) against 102 down (14 ppm, sex unstated): a pair.
    up101: await claim('MED-101', {
      ...rapa,
      ...life,
      relation: 'extends_lifespan',
      direction: 'increase',
      organism: 'Mus musculus',
      context: { sex: 'male', dose: '14 ppm', n: 120 },
      confidence: 0.9,
    }),
    down102: await claim('MED-102', {
      ...rapa,
      ...life,
      relation: 'decreases',
      direction: 'decrease',
      organism: 'mice',
      context: { dose: '14 ppm' },
      confidence: 0.7,
    }),
    // another dose: comparable with nothing on the other side
    down103: await claim('MED-103', {
      ...rapa,
      ...life,
      relation: 'decreases',
      direction: 'decrease',
      organism: 'Mus musculus',
      context: { dose: '42 ppm', sex: 'male' },
    }),
    // another organism
    down104: await claim('MED-104', {
      ...rapa,
      ...life,
      relation: 'decreases',
      direction: 'decrease',
      organism: 'C. elegans',
      context: null,
    }),
    // one paper both ways on IL-6 in rats: never a contradiction with itself
    up105: await claim('MED-105', {
      ...rapa,
      ...il,
      relation: 'increases',
      direction: 'increase',
      organism: 'Rattus norvegicus',
      context: { tissue: 'liver' },
    }),
    down105: await claim('MED-105', {
      ...rapa,
      ...il,
      relation: 'decreases',
      direction: 'decrease',
      organism: 'rats',
      context: { tissue: 'liver' },
    }),
    // metformin and lifespan: no direction stated, the relations oppose; one side unresolved words, organisms spelt differently
    down106: await claim('MED-106', {
      subjectText: 'Metformin',
      subjectEntityId: null,
      ...life,
      relation: 'shortens_lifespan',
      direction: null,
      organism: 'mouse',
      context: null,
      confidence: 0.6,
    }),
    up107: await claim('MED-107', {
      subjectText: 'metformin',
      subjectEntityId: metformin.id,
      ...life,
      relation: 'extends_lifespan',
      direction: null,
      organism: 'Mus musculus',
      context: null,
      confidence: 0.6,
    }),
    // rapamycin and IL-6 in different tissues: not comparable
    up108: await claim('MED-108', {
      ...rapa,
      ...il,
      relation: 'increases',
      direction: 'increase',
      organism: 'Mus musculus',
      context: { tissue: 'liver' },
    }),
    down109: await claim('MED-109', {
      ...rapa,
      ...il,
      relation: 'decreases',
      direction: 'decrease',
      organism: 'Mus musculus',
      context: { tissue: 'skeletal muscle' },
    }),
    // exercise and IL-6 in two human trials: the strongest evidence
    up110: await claim('MED-110', {
      subjectText: 'exercise',
      subjectEntityId: exercise.id,
      ...il,
      relation: 'increases',
      direction: 'increase',
      organism: 'Homo sapiens',
      context: { n: 400 },
      confidence: 0.85,
    }),
    down111: await claim('MED-111', {
      subjectText: 'exercise',
      subjectEntityId: exercise.id,
      ...il,
      relation: 'decreases',
      direction: 'decrease',
      organism: 'humans',
      context: { n: '400' },
      confidence: 0.85,
    }),
    // no change: never a side
    none112: await claim('MED-112', {
      ...rapa,
      ...life,
      relation: 'no_effect_on',
      direction: 'no_change',
      organism: 'Mus musculus',
      context: null,
    }),
  }
  // A human trial that studies metformin: so metformin is not "without a human trial"
  await linkEntity(db, 'MED-113', '2026-10-02', metformin.id, 'studied')
  return { entities: { rapamycin, metformin, exercise, lifespan, il6 }, claims }
}

export const GROUPS = {
  rapamycinLifespan: 'intervention:CHEBI:9168|phenotype:lifespan',
  metforminLifespan: 'intervention:CHEBI:6801|phenotype:lifespan',
  exerciseIl6: 'intervention:exercise|biomarker:il-6-level',
}
