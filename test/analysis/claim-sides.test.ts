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

describe('claim sides, round 4 (what the third set got wrong, read as the grammar says)', () => {
  test('an object whose head needs its complement takes it when short ("increased risk for ...")', () => {
    expect(sides('Obesity is associated with an increased risk for cardiovascular disease.').map((c) => c[3])).toEqual([
      'increased risk for cardiovascular disease',
    ])
    expect(sides('Expression of TRPM2-S increased sensitivity of cells to doxorubicin.').map((c) => c[3])).toEqual([
      'sensitivity of cells to doxorubicin',
    ])
    expect(
      sides('The CYP3A5*1 allele was associated with an increased risk of acute and chronic rejection.').map(
        (c) => c[3],
      ),
    ).toEqual(['increased risk of acute and chronic rejection'])
    // A head that has its complement keeps it, and a place after it stays out.
    expect(sides('Rapamycin reduced the risk of death in old mice.').map((c) => c[3])).toEqual(['risk of death'])
    // A complement cut inside a word is no side.
    expect(sides('Fenofibrate treatment reduced the percentage of time with SpO(2)<90%.')).toEqual([])
  })

  test('"restored" a change undoes it, so no direction is stated; "restored" a function raises it', () => {
    expect(sides('Rapamycin restored these phenotypic changes.')).toEqual([])
    expect(sides('The cilia length phenotype was restored by rapamycin.')).toEqual([])
    expect(sides('Rapamycin restored autophagy in aged muscle.').map((c) => c.slice(2))).toEqual([
      ['increases', 'autophagy', 'GO:0006914'],
    ])
  })

  test('a measure or a manipulation of a gene or compound names it, in the spellings papers use', () => {
    const named = (text: string) => sides(text).map((c) => [c[0], c[1], c[3], c[4]])
    expect(named('Insulin inhibits cardiac UCP3 expression.')).toEqual([
      ['Insulin', 'NCBIGene:3630', 'cardiac UCP3 expression', 'NCBIGene:7352'],
    ])
    expect(named('Rapamycin injection prevents ARHL.')[0].slice(0, 2)).toEqual(['Rapamycin injection', 'CHEBI:9168'])
    expect(named('mTOR inhibition increased the levels of phospho-GSK3β.')[0].slice(2)).toEqual([
      'levels of phospho-GSK3β',
      'NCBIGene:2932',
    ])
    expect(named('Ectopic expression of PDGFRα promoted AKT activation.')[0].slice(0, 2)).toEqual([
      'Ectopic expression of PDGFRα',
      'NCBIGene:5156',
    ])
    expect(named('TGF-β enhanced MMP-2 production and activity.')[0].slice(2)).toEqual([
      'MMP-2 production and activity',
      'NCBIGene:4313',
    ])
    expect(named('LTβR levels in spleen stroma were reduced by TSC1 deletion.')[0].slice(2)).toEqual([
      'LTβR levels in spleen stroma',
      'NCBIGene:4055',
    ])
    expect(sideEntity('PDGFRα')?.key).toBe('NCBIGene:5156')
    expect(sideEntity('p-EIF4EBP1')?.key).toBe('NCBIGene:1978')
    expect(sideEntity('rhIGF-I')?.key).toBe('NCBIGene:3479')
    expect(sideEntity('p-value')).toBeNull()
  })

  test('no subject that is an anaphor, a comparative, a count, a clause or a question', () => {
    expect(sides('Both therapies significantly decreased bone resorption.')).toEqual([])
    expect(sides('This phosphorylation in macrophages increased activation of Rac1.')).toEqual([])
    expect(
      sides(
        'Larger increases in BMD were significantly associated with greater reductions in nonvertebral fracture risk.',
      ),
    ).toEqual([])
    expect(sides('Several U.S. studies report reduced mortality among patients admitted directly.')).toEqual([])
    expect(sides('Tibolone 1.25 mg and estradiol 2 mg (n = 74) prevented bone loss.')).toEqual([])
    expect(sides('The open question is how rapamycin increases autophagy in neurons.')).toEqual([])
    expect(
      sides('Pharmacologic and environmental interventions to prevent hip fracture have poor compliance.'),
    ).toEqual([])
    expect(sides('PEComa is a rare mesenchymal soft tissue neoplasm often linked to mTOR pathway activation.')).toEqual(
      [],
    )
    expect(sides('Neither plasma nor tissue TNF-α appear to correlate with UC disease activity.')).toEqual([])
    expect(sides('Obese environments that, in turn, stimulate increased obesity in the offspring.')).toEqual([])
  })

  test('no object that is a relative pronoun, holds a clause or a comparison, or acts in a clause of its own', () => {
    expect(
      sides('Cell growth is positively regulated by mTOR, whose activity is inhibited by the TSC1:TSC2 complex.'),
    ).toEqual([])
    expect(sides('Finally, leptin-induced NADPH oxidase activation promoted macrophage proliferation.')).toEqual([])
    expect(
      sides('Thereby, Aha1 promotes effective folding of Hsp90-dependent clients such as steroid receptors.'),
    ).toEqual([])
    expect(sides('Dichloroacetate induces adhesion fibroblasts to undergo apoptosis.')).toEqual([])
    // A participle after "and" is a second verb; a modification state is the noun's.
    expect(sides('FGF-10 induced mTORC1 and amplified HIF-1α activity.').map((c) => c[3])).toEqual(['mTORC1'])
    expect(sides('Rapamycin reduced IL-6 and phosphorylated STAT3 levels.').map((c) => c[3])).toEqual([
      'IL-6 and phosphorylated STAT3 levels',
    ])
    expect(sides('Tsc1 ablation induces prominent endoplasmic reticulum (ER) stress responses.')).toEqual([])
    // The lifespan word the verb governs is the outcome, not a phenotype of the next clause.
    expect(sides('Rapamycin prolongs survival in old mice, despite weight loss.').map((c) => [c[2], c[3]])).toEqual([
      ['extends_lifespan', 'survival'],
    ])
  })

  test("an abbreviation the text defines as something else, plural or first in its bracket, is not the lexicon's", () => {
    expect(
      sides('We injected adipose-derived stromal cells (ASCs). We found that ASCs promoted cartilage repair.'),
    ).toEqual([])
    expect(
      sides(
        'We gave D-amphetamine (AMPH; 15 mg oral). AMPH-induced stimulation was associated with salivary estradiol.',
      ).filter((c) => c[1] === 'NCBIGene:273'),
    ).toEqual([])
    expect(
      sides(
        'Exposure to traffic-related air pollution (TRAP) is common. Prenatal TRAP exposure increased depression.',
      ).filter((c) => c[1] !== null),
    ).toEqual([])
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
