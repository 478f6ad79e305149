/**
 * The skeleton of one synthetic paper: topic, study type, organism, what was given, what was
 * measured and how it came out. Title, abstract, entities, claims and story are all written from
 * this one record, which is what keeps them consistent with each other.
 */
import { curatedLexicon as lexicon, type LexiconEntry } from '../lexicon/lexicon'
import { HUMAN, cellSystems, invertebrates, vertebrates, type Organism } from './organisms'
import { outcome, outcomesIn, type Outcome, type Scope } from './outcomes'
import { Weighted, type Random } from './random'
import { profiles } from './topic-profiles'
import { TOPIC_SLUGS, type StudyType, type TopicProfile, type TopicSlug } from './topics'

export type Band = 'low' | 'tangential' | 'aging' | 'core'
export type Effect = 'benefit' | 'none' | 'harm'
export type InterventionKind = 'drug' | 'lifestyle' | 'genetic' | 'procedure'

export type Design = {
  band: Band
  topic: TopicSlug
  profile: TopicProfile
  studyType: StudyType
  preprint: boolean
  organism: Organism | null // null: reviews and commentaries about no organism in particular
  system: string | null // cultured cells, for cell studies
  strain: string | null
  intervention: LexiconEntry | null
  kind: InterventionKind | null
  gene: LexiconEntry
  target: LexiconEntry | null // a gene the intervention is known to act on
  pathway: LexiconEntry
  primary: Outcome
  secondary: Outcome | null
  exposure: Outcome | null // observational and computational studies: the measure that predicts
  tissue: LexiconEntry
  hallmark: LexiconEntry
  sex: 'male' | 'female' | 'both'
  age: string
  n: number
  dose: string | null
  route: string | null
  duration: string
  effect: Effect
  /** Planted papers (planted.ts) that must name their hallmark in the abstract and list it first. */
  plantedHallmark?: boolean
}

/** 15% not aging biology, 25% tangential, 35% aging, 25% core (relevance >= 2.5). */
const bands = new Weighted<Band>([
  ['low', 15],
  ['tangential', 25],
  ['aging', 35],
  ['core', 25],
])

/** Papers outside aging biology are mostly filed under "other"; core papers almost never are. */
const otherShare: Record<Band, number> = { low: 0.88, tangential: 0.25, aging: 0.04, core: 0.01 }
const namedTopics = new Weighted<TopicSlug>(
  TOPIC_SLUGS.filter((t) => t !== 'other').map((t, i) => [t, [14, 11, 10, 6, 10, 10, 10, 9, 10, 12][i]!] as const),
)

const effects = new Weighted<Effect>([
  ['benefit', 78],
  ['none', 14],
  ['harm', 8],
])
const sexes = new Weighted<Design['sex']>([
  ['both', 55],
  ['male', 30],
  ['female', 15],
])

const byKey = new Map(lexicon.map((e) => [`${e.type}:${e.key}`, e]))

function kindOf(intervention: LexiconEntry): InterventionKind {
  const cls = intervention.class ?? ''
  if (cls === 'lifestyle') return 'lifestyle'
  if (cls === 'partial reprogramming' || cls === 'gene therapy') return 'genetic'
  if (
    /cell therapy|blood-based|microbiome|oxygen|protein therapy|hormone therapy|vaccination/.test(cls) ||
    intervention.key === 'senolytic-vaccination'
  )
    return 'procedure'
  return 'drug'
}

const candidateCache = new Map<string, LexiconEntry[]>()

/** The profile's interventions a study of this type can test (computed once per pair). */
function interventionsFor(profile: TopicProfile, studyType: StudyType): LexiconEntry[] {
  const key = `${profile.slug}|${studyType}`
  let list = candidateCache.get(key)
  if (!list) candidateCache.set(key, (list = profile.interventions.filter((i) => FITS[studyType].includes(kindOf(i)))))
  return list
}

/** Which kinds of intervention each study type can plausibly test. */
const FITS: Record<StudyType, InterventionKind[]> = {
  human_trial: ['drug', 'lifestyle', 'procedure'],
  human_observational: ['drug', 'lifestyle'],
  animal: ['drug', 'lifestyle', 'genetic', 'procedure'],
  invertebrate: ['drug', 'lifestyle'],
  cells: ['drug', 'genetic'],
  computational: ['drug', 'lifestyle'],
  review: ['drug', 'lifestyle', 'genetic', 'procedure'],
  other: ['drug', 'lifestyle', 'procedure'],
}

/** Share of papers of each study type that test an intervention (the rest study a gene or a measure). */
const INTERVENTION_SHARE: Record<StudyType, number> = {
  human_trial: 1,
  human_observational: 0.35,
  animal: 0.75,
  invertebrate: 0.7,
  cells: 0.6,
  computational: 0.15,
  review: 0.6,
  other: 0.5,
}

const SCOPE: Record<StudyType, Scope> = {
  human_trial: 'h',
  human_observational: 'h',
  animal: 'a',
  invertebrate: 'i',
  cells: 'c',
  computational: 'h',
  review: 'h',
  other: 'h',
}

const fallbackOutcomes = { h: outcomesIn('h'), a: outcomesIn('a'), i: outcomesIn('i'), c: outcomesIn('c') }

function chooseOutcomes(rng: Random, profile: TopicProfile, scope: Scope): [Outcome, Outcome | null] {
  let pool = profile.outcomes.filter((o) => o.scopes.includes(scope))
  if (pool.length < 2) pool = [...pool, ...fallbackOutcomes[scope]]
  const [first, second] = rng.sample(pool, 2)
  const primary = rng.chance(0.5) ? first! : second!
  const secondary = primary === first ? second! : first!
  return [primary, rng.chance(0.6) ? secondary : null]
}

/** [dose, route] pairs as an abstract states them. */
const DOSES: Record<'human' | 'incretin' | 'biologic' | 'vertebrate' | 'invertebrate' | 'cells', [string, string][]> = {
  human: [
    ['500 mg twice daily', 'oral'],
    ['1,000 mg/day', 'oral'],
    ['250 mg/day', 'oral'],
    ['5 mg once weekly', 'oral'],
    ['1 g/day', 'oral'],
    ['100 mg/day', 'oral'],
  ],
  incretin: [
    ['2.4 mg once weekly', 'subcutaneous'],
    ['1.0 mg once weekly', 'subcutaneous'],
    ['15 mg once weekly', 'subcutaneous'],
  ],
  biologic: [
    ['300 mg every 8 weeks', 'intravenous'],
    ['150 mg every 4 weeks', 'subcutaneous'],
    ['100 mg daily', 'subcutaneous'],
  ],
  vertebrate: [
    ['14 ppm in the diet', 'dietary'],
    ['42 ppm in the diet', 'dietary'],
    ['5 mg/kg', 'intraperitoneal'],
    ['2 mg/kg', 'intraperitoneal'],
    ['50 mg/kg/day', 'oral gavage'],
    ['500 mg/kg/day', 'oral gavage'],
    ['0.1% in drinking water', 'drinking water'],
    ['400 mg/kg/day', 'drinking water'],
  ],
  invertebrate: [
    ['50 µM', 'dietary'],
    ['100 µM', 'dietary'],
    ['1 mM', 'dietary'],
    ['5 mM', 'dietary'],
    ['25 µM', 'dietary'],
  ],
  cells: [
    ['100 nM', 'in culture'],
    ['1 µM', 'in culture'],
    ['10 µM', 'in culture'],
    ['250 nM', 'in culture'],
    ['5 µM', 'in culture'],
  ],
}

const DURATIONS: Record<'trial' | 'cohort' | 'animal' | 'invertebrate' | 'cells', string[]> = {
  trial: ['12 weeks', '24 weeks', '6 months', '12 months', '2 years', '8 weeks', '16 weeks'],
  cohort: [
    'a median follow-up of 8.4 years',
    'a median follow-up of 12 years',
    'up to 20 years of follow-up',
    'a mean follow-up of 6.1 years',
    'a median follow-up of 4.7 years',
  ],
  animal: ['12 weeks', '3 months', '6 months', '8 weeks', 'the rest of their lives', '16 weeks'],
  invertebrate: ['from day 1 of adulthood', 'throughout adulthood', 'from the L4 stage', 'from eclosion'],
  cells: ['48 hours', '72 hours', '7 days', '10 days', '14 days'],
}

function doseAndRoute(
  rng: Random,
  intervention: LexiconEntry,
  kind: InterventionKind,
  studyType: StudyType,
  organism: Organism | null,
): [string | null, string | null] {
  if (kind === 'genetic')
    return [null, rng.pick(['AAV9 vector', 'doxycycline-inducible transgene', 'lipid nanoparticle'])]
  if (kind === 'procedure' || (kind === 'lifestyle' && rng.chance(0.6))) return [null, null]
  if (kind === 'lifestyle') {
    return [
      rng.pick([
        '25% energy restriction',
        'an 8-hour daily eating window',
        'three sessions per week',
        'every other day',
      ]),
      null,
    ]
  }
  const cls = intervention.class ?? ''
  if (studyType === 'cells') return rng.pick(DOSES.cells)
  if (organism?.kind === 'human') {
    if (/GLP-1|GIP/.test(cls)) return rng.pick(DOSES.incretin)
    if (/antibod|antagonist|TNF inhibitor/.test(cls)) return rng.pick(DOSES.biologic)
    return rng.pick(DOSES.human)
  }
  return rng.pick(organism?.kind === 'invertebrate' ? DOSES.invertebrate : DOSES.vertebrate)
}

function sizeFor(rng: Random, studyType: StudyType): number {
  const logUniform = (lo: number, hi: number) => Math.round(Math.exp(rng.float(Math.log(lo), Math.log(hi))))
  switch (studyType) {
    case 'human_trial':
      return logUniform(24, 900)
    case 'human_observational':
      return logUniform(300, 480_000)
    case 'computational':
      return logUniform(500, 350_000)
    case 'animal':
      return logUniform(12, 240)
    case 'invertebrate':
      return logUniform(90, 2_400)
    case 'cells':
      return rng.int(3, 6)
    case 'review':
      return logUniform(12, 240) // studies reviewed
    case 'other':
      return logUniform(40, 5_000)
  }
}

export function designPaper(rng: Random, preprint: boolean): Design {
  const band = rng.weighted(bands)
  const topic: TopicSlug = rng.chance(otherShare[band]) ? 'other' : rng.weighted(namedTopics)
  const profile = profiles[topic]
  let studyType = rng.weighted(profile.studyTypes)
  if (preprint && studyType === 'other') studyType = 'computational' // servers rarely host commentaries
  const scope = SCOPE[studyType]

  let organism: Organism | null = HUMAN
  let system: string | null = null
  if (studyType === 'animal') organism = rng.weighted(vertebrates)
  else if (studyType === 'invertebrate') organism = rng.weighted(invertebrates)
  else if (studyType === 'cells') ({ system, organism } = rng.weighted(cellSystems))
  else if ((studyType === 'review' || studyType === 'other') && rng.chance(0.4)) organism = null
  const strain = organism && organism.strains.length > 0 && rng.chance(0.75) ? rng.pick(organism.strains) : null

  const candidates = interventionsFor(profile, studyType)
  const intervention = candidates.length > 0 && rng.chance(INTERVENTION_SHARE[studyType]) ? rng.pick(candidates) : null
  const kind = intervention ? kindOf(intervention) : null
  const targets = (intervention?.targets ?? []).map((key) => byKey.get(`gene:${key}`)).filter((g) => g !== undefined)
  const target = targets.length > 0 ? rng.pick(targets) : null
  let gene = rng.pick(profile.genes)
  if (gene === target) gene = rng.pick(profile.genes)

  const [primary, secondary] = chooseOutcomes(rng, profile, scope)
  const measures = profile.outcomes.filter(
    (o) => o.entry.type === 'biomarker' && o !== primary && o.scopes.includes('h'),
  )
  const exposure =
    (studyType === 'human_observational' || studyType === 'computational') && !intervention && measures.length > 0
      ? rng.pick(measures)
      : null

  const human = organism?.kind === 'human'
  const [dose, route] = intervention ? doseAndRoute(rng, intervention, kind!, studyType, organism) : [null, null]
  const duration = rng.pick(
    studyType === 'human_trial'
      ? DURATIONS.trial
      : studyType === 'cells'
        ? DURATIONS.cells
        : human
          ? DURATIONS.cohort
          : organism?.kind === 'invertebrate'
            ? DURATIONS.invertebrate
            : DURATIONS.animal,
  )
  return {
    band,
    topic,
    profile,
    studyType,
    preprint,
    organism,
    system,
    strain,
    intervention,
    kind,
    gene,
    target,
    pathway: rng.pick(profile.pathways),
    primary,
    secondary,
    exposure,
    tissue: rng.pick(profile.tissues),
    hallmark: rng.pick(profile.hallmarks),
    sex: rng.weighted(sexes),
    age: organism ? rng.pick(organism.ages) : 'older',
    n: sizeFor(rng, studyType),
    dose,
    route,
    duration,
    effect: intervention ? rng.weighted(effects) : rng.chance(0.85) ? 'benefit' : 'none',
  }
}

/** What a planted paper fixes; everything else is drawn as for any paper (see planted.ts). */
export type DesignPlan = {
  topic: TopicSlug
  studyType: StudyType
  organism: Organism
  intervention: LexiconEntry
  outcome: string // 'type:key' in the outcome table
  effect: Effect
  sex: Design['sex'] // 'both' leaves sex unstated in the abstract and the claim
  dose: string | null // null leaves the dose unstated
  route: string | null
}

/**
 * A planted paper's design. The paper's usual draws are made first (so its band, and everything the
 * plan leaves open, vary as they do for any paper); then the plan's fields replace theirs. Papers
 * outside aging biology are lifted to the aging band: planted findings are meant to be read.
 */
export function designFor(rng: Random, preprint: boolean, plan: DesignPlan): Design {
  const drawn = designPaper(rng, preprint)
  const profile = profiles[plan.topic]
  const targets = plan.intervention.targets.map((key) => byKey.get(`gene:${key}`)).filter((g) => g !== undefined)
  const target = targets.length > 0 ? rng.pick(targets) : null
  const genes = profile.genes.filter((g) => g !== target)
  const o = plan.organism
  const duration = rng.pick(
    plan.studyType === 'human_trial'
      ? DURATIONS.trial
      : o.kind === 'invertebrate'
        ? DURATIONS.invertebrate
        : DURATIONS.animal,
  )
  return {
    ...drawn,
    band: drawn.band === 'low' || drawn.band === 'tangential' ? 'aging' : drawn.band,
    topic: plan.topic,
    profile,
    studyType: plan.studyType,
    organism: o,
    system: null,
    strain: o.strains.length > 0 ? rng.pick(o.strains) : null,
    intervention: plan.intervention,
    kind: kindOf(plan.intervention),
    target,
    gene: rng.pick(genes.length > 0 ? genes : profile.genes),
    pathway: rng.pick(profile.pathways),
    primary: outcome(plan.outcome),
    secondary: null,
    exposure: null,
    tissue: rng.pick(profile.tissues),
    hallmark: rng.pick(profile.hallmarks),
    sex: plan.sex,
    age: rng.pick(o.ages),
    n: sizeFor(rng, plan.studyType),
    dose: plan.dose,
    route: plan.route,
    duration,
    effect: plan.effect,
  }
}
