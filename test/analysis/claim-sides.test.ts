/**
 * Claim sides: the built-in analyzer takes whole noun phrases next to their verb, never a clause, a
 * circumstance, a dangling word or a word cut at a hyphen; a side whose whole text is a lexicon name or alias, in
 * any case, names its entity (src/pipeline/analysis/side-entity.ts), and is stored with it whichever analyzer wrote it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { extractClaims } from '../../src/pipeline/analysis/builtin/claims'
import { splitSentences } from '../../src/pipeline/analysis/builtin/sentences'
import { sideEntity } from '../../src/pipeline/analysis/side-entity'
import { storePaperAnalysis } from '../../src/pipeline/analysis/store'
import type { PaperAnalysis } from '../../src/pipeline/analysis/analyzer'
import { claims, entities } from '../../src/db/schema'
import { freshDatabase, type TestDatabase } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'

const setting = { organism: null, design: null, evidenceLevel: null, preprint: false, review: false }
const sides = (text: string) =>
  extractClaims(splitSentences(text), setting).map((c) => [
    c.subject.text,
    c.subject.entity?.key ?? null,
    c.relation,
    c.object.text,
    c.object.entity?.key ?? null,
  ])

describe('built-in claim sides are whole noun phrases', () => {
  test('never a word cut at a hyphen ("oncogene-" of "oncogene- and therapy-induced")', () => {
    expect(sides('Rapamycin reduced oncogene- and therapy-induced arrest.')).toEqual([])
  })

  test('never a circumstance, a clause or a lone connective', () => {
    expect(
      sides(
        'Serum brain-derived neurotrophic factor (BDNF) did not change significantly between preintervention and postintervention.',
      ),
    ).toEqual([])
    expect(sides('Western blotting demonstrated increased expression of IL-1β in the hippocampus.')).toEqual([])
    expect(
      sides(
        'Despite improved therapeutic methods, CNS toxicity resulting from cancer treatment remains a major cause of morbidity.',
      ),
    ).toEqual([])
  })

  test('never an adjective whose noun was cut off, nor an unbalanced bracket', () => {
    // The coordination shares its head noun, so the object is the whole phrase, never "gastric" alone.
    expect(
      sides('Activation of mTORC1 signaling in gastric X/A-like cells reduced gastric and circulating ghrelin levels.'),
    ).toEqual([
      ['Activation of mTORC1 signaling', 'GO:0038202', 'decreases', 'gastric and circulating ghrelin levels', null],
    ])
    for (const claim of sides(
      'Prophylactic cranial irradiation (PCI) reduces brain metastasis incidence in lung cancer.',
    )) {
      expect(claim[0]).not.toMatch(/\)$/)
    }
  })

  test('the mention next to the verb, with its head noun, not one further off', () => {
    expect(sides('Rapamycin treatment reduced IL-6 levels in old mice.')).toEqual([
      ['Rapamycin', 'CHEBI:9168', 'decreases', 'IL-6 levels', 'il-6-level'],
    ])
    expect(sides('TSC1 deletion increased mTORC1 signaling.')).toEqual([
      ['TSC1 deletion', 'NCBIGene:7248', 'increases', 'mTORC1 signaling', 'GO:0038202'],
    ])
    // 4E-BP1 belongs to the second clause; the object of "blocked" is S6 protein phosphorylation.
    expect(sides('Rapamycin blocked S6 protein phosphorylation but had no effect on 4E-BP1 phosphorylation.')).toEqual([
      ['Rapamycin', 'CHEBI:9168', 'decreases', 'S6 protein phosphorylation', null],
    ])
  })

  test('a mention that only modifies another noun does not name the side ("mTOR inhibitors" are no gene)', () => {
    const [claim] = sides('mTOR inhibitors reduced IL-6 levels in mice.')
    expect(claim?.[0]).toBe('mTOR inhibitors')
    expect(claim?.[1]).toBeNull()
  })
})

describe('claim sides read from their clause (fragments of the hand-read sample)', () => {
  test('the manipulation before a subject stays in it, so the claim keeps its sense', () => {
    expect(sides('Inhibition of endogenous REDD1 increases cell size.')).toEqual([
      ['Inhibition of endogenous REDD1', 'NCBIGene:54541', 'increases', 'cell size', null],
    ])
    expect(
      sides('Treatment of TSC2-null tumors with rapamycin attenuated STAT3 expression and phosphorylation.'),
    ).toEqual([
      [
        'Treatment of TSC2-null tumors with rapamycin',
        'CHEBI:9168',
        'decreases',
        'STAT3 expression and phosphorylation',
        'NCBIGene:6774',
      ],
    ])
    // Removing the cells a marker defines keeps the marker: senolytic papers ask about p16 this way.
    expect(
      sides('Clearance of p16-positive cells extended median lifespan by 25% in mice.').map((s) => s.slice(0, 2)),
    ).toEqual([['Clearance of p16-positive cells', 'NCBIGene:1029']])
  })

  test('a mention inside a longer subject is not the subject ("cell senescence in COPD", not "COPD")', () => {
    expect(sides('Cell senescence in COPD was linked to mTOR activation.')).toEqual([
      ['Cell senescence in COPD', null, 'associated_with', 'mTOR activation', 'NCBIGene:2475'],
    ])
  })

  test('an object coordinated under one head is taken whole ("CHOP and ATF4 expression")', () => {
    expect(sides('Rapamycin prevented bortezomib-induced CHOP and ATF4 expression in cells.')).toEqual([
      ['Rapamycin', 'CHEBI:9168', 'protects_against', 'bortezomib-induced CHOP and ATF4 expression', null],
    ])
    expect(
      sides('We show that resveratrol inhibits insulin- and leucine-stimulated mTOR signaling in fibroblasts.'),
    ).toEqual([['resveratrol', 'CHEBI:27881', 'decreases', 'insulin- and leucine-stimulated mTOR signaling', null]])
  })

  test('no claim from a fragment: a hyphen adjective without its noun, a dangling word, a list in a phrase', () => {
    expect(
      sides('Depletion or inhibition of DAPK1 suppressed growth of p53-mutant but not p53-WT cancer cells.'),
    ).toEqual([])
    expect(
      sides('PIK3CA, PRKAG2, PTEN, STK11 and TSC1 were significantly associated with rectal cancer overall.'),
    ).toEqual([])
    expect(
      sides(
        'Mutational inactivation of neurofibromatosis-1 (NF1), tuberous sclerosis complex (TSC), ' +
          'and PTEN genes is associated with glioma formation.',
      ),
    ).toEqual([])
  })

  test('no claim about a vague head ("form of PDC"), from a negated verb or a participle with no object', () => {
    expect(sides('Everolimus was given; exercise-induced form of PDC was seen.')).toEqual([])
    expect(sides('In our study, obesity was not associated with elevated IL-6 levels.')).toEqual([])
    expect(sides('PACAP may counteract cognitive deficits induced in HD.')).toEqual([])
  })
})

describe('claim sides, round 3 (fragments of both hand-read samples)', () => {
  test('a pair under one head stays whole: "deletion of either Tsc1 or Tsc2", "loss of function of TSC1/TSC2"', () => {
    expect(sides('Deletion of either Tsc1 or Tsc2 induces mTORC1 signaling.').map((c) => c.slice(0, 2))).toEqual([
      ['Deletion of either Tsc1 or Tsc2', null],
    ])
    expect(sides('Loss of both ERK1 and ERK2 impaired mTORC1 signaling.').map((c) => c.slice(0, 2))).toEqual([
      ['Loss of both ERK1 and ERK2', null],
    ])
  })

  test('no claim about a part of a longer subject ("block of Atf3 induction", "... in MEF", "... in cells")', () => {
    expect(sides('shRNA-mediated block of Atf3 induction suppresses expression of gelsolin.')).toEqual([])
    expect(sides('Deletion of Tsc1 in mouse embryonic fibroblasts (MEF) decreased phosphorylation of c-MYC.')).toEqual(
      [],
    )
    expect(
      sides('The downregulation of autophagy observed in cancer cells is associated with tumor progression.'),
    ).toEqual([])
    expect(sides('It can be concluded that the addition of vitamin D and calcium increases BMD in children.')).toEqual(
      [],
    )
  })

  test('a participle used as an adjective is no verb ("an increased risk", "characterized by decreased tone")', () => {
    expect(sides('Anaemia was related to an increased risk of adult depression.')).toEqual([])
    expect(sides('AD is characterized by decreased cholinergic tone and tau hyperphosphorylation.')).toEqual([])
    // A causal verb before it makes it the claim's own.
    expect(sides('Mutations in TSC2 lead to increased mTORC1 signaling.').map((c) => c.slice(2))).toEqual([
      ['increases', 'mTORC1 signaling', 'GO:0038202'],
    ])
  })

  test('an object list is taken whole when short, never cut before the head its members share', () => {
    expect(
      sides('Endurance exercise increased IL6, IL8, and TNFα gene expression after exercise.').map((c) => c.slice(3)),
    ).toEqual([['IL6, IL8, and TNFα gene expression', null]])
    expect(sides('Depletion of PFKFB3 inhibited proliferation and tumorigenicity of Tsc2-deficient cells.')).toEqual([])
  })

  test('populations, shares and heads about something else are no sides; "improves" a disease lessens it', () => {
    expect(sides('A total of 33% of cases had reduced TSC2 expression.')).toEqual([])
    expect(sides('Furthermore, MK-2206 increased the cytotoxicity of rapamycin in MEFs.')).toEqual([])
    expect(sides('L-Carnitine supplementation improves delayed-onset muscle soreness.').map((c) => c[2])).toEqual([
      'decreases',
    ])
    expect(sides('A membrane-tethered CP1 protects TSC2 from AKT phosphorylation.')).toEqual([])
  })

  test('an abbreviation the text defines as something else is not the lexicon\'s ("traffic-related air pollution (TRAP)")', () => {
    expect(
      sides(
        'Exposure to traffic-related air pollution (TRAP) was common. TRAP impairs adult hippocampal neurogenesis.',
      ),
    ).toEqual([])
    // A symbol in another spelling names its gene.
    expect(sides('Rheb stimulates phosphorylation of S6K.').map((c) => c.slice(0, 2))).toEqual([
      ['Rheb', 'NCBIGene:6009'],
    ])
  })
})

describe('a side written as a lexicon name or alias names its entity', () => {
  test('names, synonyms and symbols, in any case and spelling', () => {
    for (const [text, key] of [
      ['rapamycin', 'CHEBI:9168'],
      ['Sirolimus', 'CHEBI:9168'],
      ['SIROLIMUS', 'CHEBI:9168'],
      ['the rapamycin', 'CHEBI:9168'],
      ['p16INK4a', 'NCBIGene:1029'],
      ['P16-INK4A', 'NCBIGene:1029'],
      ['CDKN2A', 'NCBIGene:1029'],
      ['temsirolimus', 'temsirolimus'],
      ['everolimus', 'CHEBI:68478'],
    ] as const)
      expect([text, sideEntity(text)?.key ?? null]).toEqual([text, key])
  })

  test('a phrase, a longer word or an abbreviation with nothing to back it names nothing', () => {
    for (const text of ['rapamycin treatment', 'temsirolimus-treated cells', 'NR', '', 'sirolimusx'])
      expect(sideEntity(text)).toBeNull()
  })
})

describe('storing claims', () => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await freshDatabase()
    await insertPapers(database.db, [paperRow({ id: 'MED-801' })])
  })
  afterAll(async () => {
    await database.close()
  })

  test('a side an analyzer left unresolved but wrote as a lexicon name is stored with its entity', async () => {
    const analysis: PaperAnalysis = {
      judgement: {
        relevance: 2,
        relevanceConfidence: 0.8,
        newsworthiness: 1,
        studyType: 'animal',
        studyTypeConfidence: 0.8,
        topic: 'mtor-rapamycin',
        topicConfidence: 0.8,
        promotional: 0,
      },
      entities: [],
      claims: [
        {
          subject: { text: 'Sirolimus', entity: null },
          relation: 'decreases',
          object: { text: 'p16INK4a', entity: null },
          organism: 'Mus musculus',
          context: null,
          direction: 'decrease',
          magnitude: null,
          evidence: 'Sirolimus lowered p16INK4a.',
          confidence: 0.7,
        },
      ],
      story: null,
    }
    await storePaperAnalysis(database.db, 'MED-801', analysis, 'test-model', 'v1')
    const [row] = await database.db.select().from(claims).where(eq(claims.paperId, 'MED-801'))
    const [subject] = await database.db.select().from(entities).where(eq(entities.id, row.subjectEntityId!))
    const [object] = await database.db.select().from(entities).where(eq(entities.id, row.objectEntityId!))
    expect([row.subjectText, subject.key, row.objectText, object.key]).toEqual([
      'Sirolimus',
      'CHEBI:9168',
      'p16INK4a',
      'NCBIGene:1029',
    ])
  })
})
