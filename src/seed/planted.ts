/**
 * Known contradictions and knowledge gaps, planted in every synthetic corpus so that tests (and an
 * operator trying the service) can check that /api/intelligence finds exactly them.
 *
 * Layout. The corpus is cut into blocks of BLOCK = 1,000 papers (by index). In every block the
 * papers at the 21 offsets of SCENARIO_OFFSETS (about every 47th paper, 9 to 947) are written from
 * the scenarios below instead of a random design, so a corpus of N papers holds floor(N / 1,000)
 * copies of each (plus those of a final partial block that fall inside it). The single-paper
 * scenario is planted in block 0 only, so it stays one paper at any size. The papers at the 20
 * FADING_OFFSETS (30 to 486) of every block in the first half of the corpus (index < N / 2) keep
 * their random design but name the hallmark "stem cell exhaustion": an area with history and little
 * recent work (about 20 such papers per 1,000 in the first half, against some 2 per 1,000 that name
 * it at random). The offsets avoid the demo corpus papers that the search relevance set
 * (test/search/relevance-set.json) expects, so planting leaves that set valid. Everything else
 * about a planted paper (band, journal, dates, licence, story, the rest of its abstract) is drawn
 * as for any paper, from (seed, index): planting is deterministic.
 *
 * Why these subjects. A planted paper keeps one claim, its primary finding, always resolved to
 * lexicon entities and with a context that states exactly the conditions the scenario fixes (sex
 * only when it is not "both", dose only when given; no tissue). Contradiction scenarios use
 * organisms that random designs never use (golden hamster, guinea pig, medaka, grey mouse lemur,
 * pig, cynomolgus macaque, rabbit), so every contradiction found in those organisms is planted, and
 * none may be found where the scenario says the papers are not comparable. The finding scenarios
 * pair a drug of one topic with an outcome that only another topic measures (random designs draw
 * both from one topic profile), so no random paper ever states them.
 *
 * Contradictions (pairs of claims from different papers, same subject and object, same organism,
 * comparable conditions, opposite directions):
 * - C1 acarbose on lifespan, golden hamsters, male, 1,000 ppm: two papers extend it, one shortens it
 *   (opposing relations extends_lifespan and decreases).
 * - C2 taurine on IL-6 levels, guinea pigs, 1% in drinking water: one paper in females lowers it, one
 *   that states no sex raises it (an unstated condition does not make claims incomparable).
 * Not contradictions:
 * - D1 glycine on lifespan: extended in medaka, shortened in grey mouse lemurs (different organisms).
 * - D2 lithium on IL-6 levels in pigs: lowered in males, raised in females (different sex).
 * - D3 metformin on lifespan in cynomolgus macaques: extended at 50 mg/kg/day, shortened at 500 (dose).
 * - D4 curcumin on lifespan in rabbits: extended in two papers (same direction).
 * Gaps:
 * - no_human_trial: follistatin gene therapy extends lifespan in mice and zebrafish, and no human
 *   trial tests it (gene therapies are never trialled by random designs either). Acarbose also has
 *   animal lifespan evidence (C1) but a planted human trial, so it is not this gap.
 * - single_paper: liraglutide reduces hair greying in mice, in one paper of the whole corpus.
 *   Everolimus reducing synaptic loss is planted in mice and in rats in every block: never a gap.
 * - single_organism: MCC950 reduces muscle atrophy in rats, in two papers per block, rats only.
 * - declining_attention: the hallmark stem cell exhaustion (see Layout).
 * - disputed_finding: C1 and C2 (one per contradiction group).
 */
import { entriesOfType, type LexiconEntry } from '../lexicon/lexicon'
import { designFor, designPaper, type Design, type DesignPlan } from './design'
import type { SeedClaim } from './extraction'
import type { Finding } from './findings'
import { HUMAN, MOUSE, vertebrates, type Organism } from './organisms'
import type { Random } from './random'

export const BLOCK = 1000
export const SCENARIO_OFFSETS = [
  9, 56, 101, 149, 195, 243, 290, 336, 384, 430, 478, 524, 571, 620, 665, 713, 759, 806, 853, 900, 947,
]
export const FADING_OFFSETS = [
  30, 57, 78, 102, 126, 150, 174, 198, 222, 246, 271, 294, 318, 342, 366, 390, 414, 439, 462, 486,
]
export const FADING_HALLMARK = 'stem-cell-exhaustion'

function intervention(name: string): LexiconEntry {
  const found = entriesOfType('intervention').find((e) => e.name === name)
  if (!found) throw new Error(`seed: no intervention named ${name}`)
  return found
}

/** Organisms only planted papers use; lexicon keys, so extraction links them like any other. */
const species = (key: string, latin: string, singular: string, plural: string, ages: string[]): Organism => ({
  key,
  kind: 'vertebrate',
  latin,
  singular,
  plural,
  strains: [],
  ages,
  mesh: ['Animals'],
})

export const PLANTED_ORGANISMS = {
  hamster: species('NCBITaxon:10036', 'Mesocricetus auratus', 'golden hamster', 'golden hamsters', [
    '18-month-old',
    '24-month-old',
  ]),
  guineaPig: species('NCBITaxon:10141', 'Cavia porcellus', 'guinea pig', 'guinea pigs', ['3-year-old', '4-year-old']),
  medaka: species('NCBITaxon:8090', 'Oryzias latipes', 'medaka', 'medaka', ['18-month-old', '24-month-old']),
  lemur: species('NCBITaxon:30608', 'Microcebus murinus', 'grey mouse lemur', 'grey mouse lemurs', [
    'middle-aged',
    '6-year-old',
  ]),
  pig: species('NCBITaxon:9823', 'Sus scrofa', 'pig', 'pigs', ['8-year-old', 'middle-aged']),
  macaque: species('NCBITaxon:9541', 'Macaca fascicularis', 'cynomolgus macaque', 'cynomolgus macaques', [
    'middle-aged',
    '16-year-old',
  ]),
  rabbit: species('NCBITaxon:9986', 'Oryctolagus cuniculus', 'rabbit', 'rabbits', ['5-year-old', '6-year-old']),
}
const natural = (latin: string) => vertebrates.items.find((o) => o.latin === latin)!
const RAT = natural('Rattus norvegicus')
const ZEBRAFISH = natural('Danio rerio')

export type Scenario = { name: string; plan: DesignPlan; firstBlockOnly?: boolean }

const O = PLANTED_ORGANISMS
const LIFESPAN = 'phenotype:lifespan'
const IL6 = 'biomarker:il-6-level'
const animal = (
  name: string,
  topic: DesignPlan['topic'],
  drug: string,
  organism: Organism,
  outcome: string,
  effect: DesignPlan['effect'],
  sex: DesignPlan['sex'],
  dose: string | null,
  route: string | null = dose ? 'dietary' : null,
): Scenario => ({
  name,
  plan: { topic, studyType: 'animal', organism, intervention: intervention(drug), outcome, effect, sex, dose, route },
})

/** In offset order: scenario i is planted at SCENARIO_OFFSETS[i] of each block. */
export const SCENARIOS: Scenario[] = [
  animal(
    'C1-extends-1',
    'dietary-restriction',
    'acarbose',
    O.hamster,
    LIFESPAN,
    'benefit',
    'male',
    '1,000 ppm in the diet',
  ),
  animal(
    'C1-extends-2',
    'dietary-restriction',
    'acarbose',
    O.hamster,
    LIFESPAN,
    'benefit',
    'male',
    '1,000 ppm in the diet',
  ),
  animal(
    'C1-shortens',
    'dietary-restriction',
    'acarbose',
    O.hamster,
    LIFESPAN,
    'harm',
    'male',
    '1,000 ppm in the diet',
  ),
  animal(
    'C2-lowers',
    'other',
    'taurine',
    O.guineaPig,
    IL6,
    'benefit',
    'female',
    '1% in drinking water',
    'drinking water',
  ),
  animal('C2-raises', 'other', 'taurine', O.guineaPig, IL6, 'harm', 'both', '1% in drinking water', 'drinking water'),
  animal('D1-extends-medaka', 'other', 'glycine', O.medaka, LIFESPAN, 'benefit', 'both', null),
  animal('D1-shortens-lemur', 'other', 'glycine', O.lemur, LIFESPAN, 'harm', 'both', null),
  animal('D2-lowers-male', 'other', 'lithium', O.pig, IL6, 'benefit', 'male', null),
  animal('D2-raises-female', 'other', 'lithium', O.pig, IL6, 'harm', 'female', null),
  animal(
    'D3-extends-low-dose',
    'other',
    'metformin',
    O.macaque,
    LIFESPAN,
    'benefit',
    'both',
    '50 mg/kg/day',
    'oral gavage',
  ),
  animal(
    'D3-shortens-high-dose',
    'other',
    'metformin',
    O.macaque,
    LIFESPAN,
    'harm',
    'both',
    '500 mg/kg/day',
    'oral gavage',
  ),
  animal('D4-extends-1', 'other', 'curcumin', O.rabbit, LIFESPAN, 'benefit', 'both', null),
  animal('D4-extends-2', 'other', 'curcumin', O.rabbit, LIFESPAN, 'benefit', 'both', null),
  animal(
    'G-no-trial-mice',
    'other',
    'follistatin gene therapy',
    MOUSE,
    LIFESPAN,
    'benefit',
    'both',
    null,
    'AAV9 vector',
  ),
  animal(
    'G-no-trial-zebrafish',
    'other',
    'follistatin gene therapy',
    ZEBRAFISH,
    LIFESPAN,
    'benefit',
    'both',
    null,
    'AAV9 vector',
  ),
  {
    name: 'G-acarbose-trial',
    plan: {
      topic: 'dietary-restriction',
      studyType: 'human_trial',
      organism: HUMAN,
      intervention: intervention('acarbose'),
      outcome: 'biomarker:hba1c',
      effect: 'benefit',
      sex: 'both',
      dose: '50 mg three times daily',
      route: 'oral',
    },
  },
  {
    ...animal('G-single-paper', 'glp-1', 'liraglutide', MOUSE, 'phenotype:hair-greying', 'benefit', 'both', null),
    firstBlockOnly: true,
  },
  animal(
    'G-replicated-mice',
    'mtor-rapamycin',
    'everolimus',
    MOUSE,
    'phenotype:synaptic-loss',
    'benefit',
    'both',
    null,
  ),
  animal('G-replicated-rats', 'mtor-rapamycin', 'everolimus', RAT, 'phenotype:synaptic-loss', 'benefit', 'both', null),
  animal('G-single-organism-1', 'inflammaging', 'MCC950', RAT, 'phenotype:muscle-atrophy', 'benefit', 'both', null),
  animal('G-single-organism-2', 'inflammaging', 'MCC950', RAT, 'phenotype:muscle-atrophy', 'benefit', 'both', null),
]

export type Plant = {
  scenario: string // a SCENARIOS name, or 'fading-hallmark'
  design(rng: Random, preprint: boolean): Design
  /** The claims a planted paper keeps; null keeps what extraction finds. */
  claims: ((d: Design, findings: Finding[], extractedAt: number, rng: Random) => SeedClaim[]) | null
}

const byOffset = new Map(SCENARIOS.map((s, i) => [SCENARIO_OFFSETS[i]!, s]))
const fadingOffsets = new Set(FADING_OFFSETS)

/** The plant for paper `index` of a corpus of `papers`, or null for a random paper. */
export function plantAt(index: number, papers: number): Plant | null {
  const offset = index % BLOCK
  const scenario = byOffset.get(offset)
  if (scenario && (!scenario.firstBlockOnly || index < BLOCK)) {
    return {
      scenario: scenario.name,
      design: (rng, preprint) => designFor(rng, preprint, scenario.plan),
      claims: primaryClaim,
    }
  }
  if (fadingOffsets.has(offset) && index < papers / 2) {
    return { scenario: 'fading-hallmark', design: fadingDesign, claims: null }
  }
  return null
}

const fadingHallmark = entriesOfType('hallmark').find((e) => e.key === FADING_HALLMARK)!

function fadingDesign(rng: Random, preprint: boolean): Design {
  const d = designPaper(rng, preprint)
  return {
    ...d,
    band: d.band === 'low' || d.band === 'tangential' ? 'aging' : d.band,
    hallmark: fadingHallmark,
    plantedHallmark: true,
  }
}

const DESIGN_LABEL: Partial<Record<Design['studyType'], [string, string]>> = {
  animal: ['in vivo', 'animal'],
  human_trial: ['randomized controlled trial', 'rct'],
}

/** The primary finding only, resolved, with exactly the conditions the scenario fixes. */
function primaryClaim(d: Design, findings: Finding[], extractedAt: number, rng: Random): SeedClaim[] {
  const finding = findings[0]
  const draft = finding?.claim
  if (!draft?.subject.entity || !draft.object.entity)
    throw new Error(`seed: planted paper without a resolved primary finding`)
  const [design, level] = DESIGN_LABEL[d.studyType] ?? [null, null]
  const context: Record<string, unknown> = {
    primary: true,
    n: d.n,
    subject_type: draft.subject.entity.type,
    object_type: draft.object.entity.type,
  }
  if (d.sex !== 'both') context.sex = d.sex
  if (d.dose) context.dose = d.dose
  if (design) Object.assign(context, { design, evidence_level: level })
  if (d.preprint) context.preprint = true
  return [
    {
      subjectText: draft.subject.text,
      subjectEntity: { type: draft.subject.entity.type, key: draft.subject.entity.key },
      relation: draft.relation,
      objectText: draft.object.text,
      objectEntity: { type: draft.object.entity.type, key: draft.object.entity.key },
      organism: d.organism?.latin ?? null,
      context,
      direction: draft.direction,
      magnitude: draft.magnitude,
      evidence: finding.sentence,
      confidence: rng.round(0.7, 0.95),
      createdAt: new Date(extractedAt).toISOString(),
    },
  ]
}
