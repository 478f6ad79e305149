/**
 * Title and abstract of a synthetic paper: background, aim, methods, results (the findings, whose
 * sentences are quoted verbatim as claim evidence) and a conclusion, about 150 to 300 words.
 */
import type { Design } from './design'
import {
  associationFinding,
  control,
  effectFinding,
  freeFinding,
  geneFinding,
  mechanismFinding,
  reviewFinding,
  type Finding,
} from './findings'
import { senescenceInducers } from './organisms'
import { cap } from './capitalize'
import { measure, population, thousands } from './phrases'
import type { Random } from './random'
import type { Slots } from './topics'
import { cohorts } from './bibliography'

export type Written = { title: string; abstract: string; findings: Finding[] }

/** Tissues a cohort actually samples; anything else is measured in blood. */
const SAMPLED = new Set(['UBERON:0000178', 'UBERON:0001969', 'UBERON:0001977', 'UBERON:0002097'])

const TRIAL_DESIGNS = [
  'randomized, double-blind, placebo-controlled',
  'randomised, controlled',
  'open-label pilot',
  'multicentre randomized',
]

const MODALITIES = [
  'DNA methylation',
  'plasma proteomic',
  'blood transcriptomic',
  'metabolomic',
  'retinal imaging',
  'brain MRI',
]

/** The findings a study of this design reports, the primary one first. */
function findingsFor(rng: Random, d: Design): Finding[] {
  const out: Finding[] = []
  const add = (f: Finding | null) => {
    if (f) out.push(f)
  }
  const human = d.organism?.kind === 'human'
  if (d.studyType === 'review' || d.studyType === 'other') {
    add(reviewFinding(rng, d, d.primary))
    if (d.secondary && rng.chance(0.5)) add(reviewFinding(rng, d, d.secondary, true))
    return out
  }
  if (d.intervention) {
    add(effectFinding(rng, d, d.primary, d.effect))
    if (d.secondary) add(effectFinding(rng, d, d.secondary, rng.chance(0.8) ? d.effect : 'none', true))
    if (!human && rng.chance(0.6)) add(mechanismFinding(rng, d))
    if (rng.chance(0.3)) add(freeFinding(rng, d))
    return out
  }
  if (d.exposure) {
    const exposure = { text: measure(d.exposure), entity: d.exposure.entry }
    add(associationFinding(rng, d, exposure, d.exposure.polarity, d.primary))
    if (d.secondary) add(associationFinding(rng, d, exposure, d.exposure.polarity, d.secondary))
    return out
  }
  if (human && d.studyType !== 'cells') {
    // a genetic association in a cohort: carriers of a variant in the gene
    add(
      associationFinding(
        rng,
        d,
        { text: `genetically predicted ${d.gene.name} expression`, entity: d.gene },
        -1,
        d.primary,
      ),
    )
    return out
  }
  add(geneFinding(rng, d, d.primary))
  if (rng.chance(0.7)) add(mechanismFinding(rng, d))
  return out
}

function methods(rng: Random, d: Design): string {
  const I = d.intervention?.name
  const showRoute = d.route && d.dose && !d.dose.includes(d.route) && d.route !== 'dietary' && d.route !== 'in culture'
  const dose = d.dose ? ` (${d.dose}${showRoute ? `, ${d.route}` : ''})` : ''
  const outcomes = d.secondary ? `${measure(d.primary)} and ${measure(d.secondary)}` : measure(d.primary)
  switch (d.studyType) {
    case 'human_trial': {
      const secondary = d.secondary ? `; secondary outcomes included ${measure(d.secondary)}` : ''
      return (
        `In this ${rng.pick(TRIAL_DESIGNS)} trial, ${thousands(d.n)} adults ${d.age} were assigned to ${I}${dose} ` +
        `or ${control(d)} for ${d.duration}. The primary outcome was ${measure(d.primary)}${secondary}.`
      )
    }
    case 'human_observational': {
      const sample = SAMPLED.has(d.tissue.key) ? d.tissue.name : 'blood'
      const ascertained = d.exposure
        ? `${cap(measure(d.exposure))} was derived from ${sample} samples collected at baseline`
        : I
          ? `${cap(I)} exposure was ascertained from records and questionnaires`
          : `Genotypes were imputed and ${d.gene.name} expression was predicted in ${d.tissue.name}`
      return (
        `We analysed ${thousands(d.n)} participants ${d.age} from the ${rng.pick(cohorts)}, with ${d.duration}. ` +
        `${ascertained}, and Cox models were adjusted for age, sex and comorbidities.`
      )
    }
    case 'computational':
      return (
        `We trained ${rng.pick(['an elastic-net', 'a gradient-boosted', 'a deep neural network'])} model ` +
        `on ${rng.pick(MODALITIES)} data from ${thousands(d.n)} individuals in the ${rng.pick(cohorts)} and ` +
        `validated it in two independent cohorts, using ${d.tissue.name} samples where available.`
      )
    case 'animal': {
      const who = `${d.age} ${population(d)}`
      return I
        ? `${cap(who)} received ${I}${dose} for ${d.duration}, and we measured ${outcomes} together ` +
            `with ${d.tissue.name} histology and transcriptomics.`
        : `We generated ${population(d)} lacking ${d.gene.name} in the ${d.tissue.name} and studied them as ${d.age} ` +
            `animals, measuring ${outcomes}.`
    }
    case 'invertebrate': {
      const strain = d.strain ? ` (${d.strain})` : ''
      return I
        ? `${cap(population(d))}${strain} were exposed to ${I}${dose} ${over(d.duration)}, and survival was scored ` +
            `every other day alongside ${outcomes}.`
        : `We used RNA interference against ${d.gene.name} in ${population(d)}${strain} ` +
            `and scored survival, ${outcomes}, and ${d.pathway.name} reporters.`
    }
    case 'cells':
      return I
        ? `${cap(d.system!)} were induced to senesce with ${rng.pick(senescenceInducers)} and treated ` +
            `with ${I}${dose} for ${d.duration}, followed by RNA sequencing and high-content imaging.`
        : `We depleted ${d.gene.name} in ${d.system} using CRISPR interference and profiled ${outcomes} ` +
            `over ${d.duration}.`
    case 'review': {
      const studied = d.organism
        ? d.organism.kind === 'human'
          ? 'humans'
          : d.organism.plural
        : 'humans and model organisms'
      const secondary = d.secondary ? ` and ${measure(d.secondary)}` : ''
      return (
        `We reviewed ${thousands(d.n)} studies in ${studied}, focusing on ${d.pathway.name}, ${d.gene.name}, ` +
        `${measure(d.primary)}${secondary}.`
      )
    }
    case 'other':
      return (
        `In this ${rng.pick(['perspective', 'commentary', 'opinion article', 'conference report'])}, we discuss ` +
        `how ${d.pathway.name} and ${d.gene.name} relate ` +
        `to ${outcomes}${I ? ` and what trials of ${I} can and cannot show` : ''}.`
      )
  }
}

/** How the data were analysed: no claim, but the length and vocabulary of a real abstract. */
const ANALYSIS: Record<Design['studyType'], string[]> = {
  human_trial: [
    'Analyses followed the intention-to-treat principle, and adverse events were recorded at every visit.',
    'Outcomes were compared with linear mixed models adjusted for baseline values, age and sex.',
  ],
  human_observational: [
    'Models were adjusted for age, sex, education, smoking, body mass index and prevalent disease.',
    'Sensitivity analyses excluded events in the first two years and participants with missing covariates.',
  ],
  animal: [
    'Outcomes were assessed blind to treatment, and males and females were analysed separately.',
    'Survival was compared with log-rank tests and tissues were collected from a parallel cross-sectional cohort.',
  ],
  invertebrate: [
    'Each lifespan assay was repeated at least three times with independent populations.',
    'Survival curves were compared with log-rank tests, censoring animals lost to bagging or escape.',
  ],
  cells: [
    'Senescence was confirmed by SA-β-gal staining, p21 induction and loss of EdU incorporation.',
    'Experiments were performed in at least three biological replicates from independent donors.',
  ],
  computational: [
    'Performance was estimated by ten-fold cross-validation and in held-out data from a second cohort.',
    'Feature importance was assessed with SHAP values and compared across sexes and ancestries.',
  ],
  review: [
    'We searched PubMed and Embase for studies published since 2000 and extracted effect sizes where reported.',
    'Evidence was graded by study design, sample size and risk of bias.',
  ],
  other: ['We draw on recent trials, cohort studies and animal work to frame open questions.'],
}

const GENETIC_ANALYSIS = [
  'Littermate controls were used throughout, and males and females were analysed separately.',
  'Phenotyping was performed blind to genotype in two independent cohorts.',
]

function descriptive(rng: Random, d: Design): string {
  const O = measure(d.primary)
  switch (d.studyType) {
    case 'human_trial': {
      const completed = Math.max(1, Math.round(d.n * rng.float(0.78, 0.96)))
      return (
        `Of the ${thousands(d.n)} participants randomised, ${thousands(completed)} completed the study; mean ` +
        `age was ${rng.float(62, 78).toFixed(1)} years and ${rng.int(35, 68)}% were women.`
      )
    }
    case 'human_observational':
      return (
        `Mean age at baseline was ${rng.float(52, 76).toFixed(1)} years, ` +
        `and ${thousands(Math.max(1, Math.round(d.n * rng.float(0.03, 0.2))))} participants developed or ` +
        `showed ${O} during follow-up.`
      )
    case 'animal':
      if (!d.intervention)
        return `Mutant ${d.organism!.plural} were born at expected ratios and had normal body weight.`
      return rng.chance(0.5)
        ? 'Body weight and food intake did not differ between groups.'
        : `Treatment was well tolerated, and no excess mortality was seen in the first ${rng.int(4, 12)} weeks.`
    case 'cells':
      return (
        `Senescent cells showed the expected rise ` +
        `in ${rng.pick(['IL-6 and IL-8 secretion', 'p16INK4a and p21 expression', 'SA-β-gal activity'])} before ` +
        `treatment.`
      )
    case 'computational':
      return (
        `The model estimated age with a median absolute error of ${rng.float(2.1, 6.5).toFixed(1)} years (r = ` +
        `0.${rng.int(78, 96)}) in the validation cohort.`
      )
    case 'invertebrate':
      return (
        `Median lifespan of control populations was ${rng.int(14, 60)} days, in line with published values for ` +
        `this strain.`
      )
    case 'review':
      return `We identified ${thousands(d.n)} eligible studies, most of them small and of short duration.`
    case 'other':
      return 'We focus on the questions that current trials and cohorts can and cannot answer.'
  }
}

/** A supporting result without a claim: subgroup consistency, omics, robustness. */
function supporting(rng: Random, d: Design): string {
  const P = d.pathway.name
  switch (d.studyType) {
    case 'human_trial':
      return rng.pick([
        'Effects were consistent across prespecified subgroups defined by age, sex and baseline frailty.',
        `Exploratory analyses of blood samples suggested changes in ${P} markers, although these did not reach ` +
          `significance after correction.`,
      ])
    case 'human_observational':
    case 'computational':
      return rng.pick([
        'Associations were robust to excluding participants with prevalent cardiovascular disease or cancer.',
        `Mendelian randomization analyses provided limited support for a causal role of ${P}.`,
      ])
    case 'cells':
      return (
        `RNA sequencing identified ${thousands(rng.int(180, 2400))} differentially expressed genes, enriched ` +
        `for ${P}.`
      )
    case 'animal':
      return rng.pick([
        `RNA sequencing identified ${thousands(rng.int(180, 2400))} differentially expressed genes, enriched for ${P}.`,
        `Single-cell profiling showed that the changes were concentrated ` +
          `in ${d.tissue.name} ${rng.pick(['stromal', 'immune', 'endothelial', 'progenitor'])} cells.`,
      ])
    case 'invertebrate':
      return `The effect required intact ${P} and was abolished in mutants lacking ${d.gene.name} orthologues.`
    default:
      return rng.pick([
        `Recurrent themes include ${P}, the choice of model organism and the lack of validated biomarkers of response.`,
        `Key open questions concern dosing, timing, sex differences and which end points regulators will accept ` +
          `for ${d.profile.label}.`,
      ])
  }
}

/** A duration as a clause: 'for 12 weeks', but 'from the L4 stage' and 'throughout adulthood' as they stand. */
function over(duration: string): string {
  return duration.startsWith('from') || duration.startsWith('through') ? duration : `for ${duration}`
}

function aim(rng: Random, d: Design): string {
  const O = measure(d.primary)
  if (d.studyType === 'review' || d.studyType === 'other')
    return (
      `Here we ${rng.pick(['summarise', 'critically appraise', 'synthesise'])} current evidence ` +
      `on ${d.profile.label} and ${O}.`
    )
  if (d.intervention) {
    const subjects =
      d.organism!.kind === 'human' ? 'older adults' : d.studyType === 'cells' ? 'senescent cells' : d.organism!.plural
    return rng.pick([
      `Here we asked whether ${d.intervention.name} affects ${O} in ${subjects}.`,
      `We tested the hypothesis that ${d.intervention.name} ${d.primary.polarity === 1 ? 'improves' : 'reduces'} ${O}.`,
      `This study examined the effects of ${d.intervention.name} on ${O}.`,
    ])
  }
  if (d.exposure)
    return (
      `We examined whether ${measure(d.exposure)} ` +
      `predicts ${O}${d.studyType === 'computational' ? ' and built a model to estimate it' : ''}.`
    )
  return `We investigated the role of ${d.gene.name} in ${O}.`
}

function conclusion(rng: Random, d: Design, first: Finding | undefined): string {
  const label = d.profile.label
  const lead = first?.gist ?? label
  const unresolved =
    d.studyType === 'animal' || d.studyType === 'invertebrate'
      ? 'translation to humans remains to be tested'
      : 'the mechanisms remain to be defined'
  return rng.pick([
    `These findings suggest that ${lead}, and support further work on ${label}.`,
    `Together, our results indicate that ${lead}${d.preprint ? ', pending replication' : ''}.`,
    `${d.studyType === 'review' ? 'Well-powered trials' : 'Larger studies'} are needed to establish whether ${lead} ` +
      `in a way that matters for ${label}.`,
    `In conclusion, ${lead}; ${unresolved}.`,
  ])
}

function title(rng: Random, d: Design, first: Finding | undefined): string {
  const O = measure(d.primary)
  const I = d.intervention?.name
  const gist = cap(first?.gist ?? `${d.profile.label} and ${O}`)
  switch (d.studyType) {
    case 'human_trial':
      return rng.pick([
        `Effect of ${I} on ${O} in older adults: a randomized controlled trial`,
        `${gist}: results from a ${adjective(d.duration)} randomized trial`,
        `${cap(I!)} and ${O} in ${thousands(d.n)} adults ${d.age}: a randomised, placebo-controlled trial`,
      ])
    case 'human_observational':
      return rng.pick([
        `${gist} in a cohort of ${thousands(d.n)} older adults`,
        `Association of ${d.exposure ? measure(d.exposure) : (I ?? `${d.gene.name} variation`)} with ${O}: a ` +
          `prospective cohort study`,
        `${gist}: evidence from ${thousands(d.n)} participants`,
      ])
    case 'computational':
      return rng.pick([
        `A ${withTissue(d.tissue.name, rng.pick(MODALITIES))} model of biological age predicts ${O}`,
        `Machine learning on ${thousands(d.n)} profiles shows that ${first?.gist ?? O}`,
        `${gist}: a multi-cohort computational analysis`,
      ])
    case 'review':
      return rng.pick([
        `${cap(d.profile.label)}: mechanisms and therapeutic opportunities`,
        `Targeting ${d.pathway.name} to extend healthspan: a review`,
        `${I ? cap(I) : d.gene.name} and ${O}: a systematic review${rng.chance(0.4) ? ' and meta-analysis' : ''}`,
        `The role of ${d.gene.name} in ${d.profile.label}`,
      ])
    case 'other':
      return rng.pick([
        `Rethinking ${d.profile.label} in geroscience: a perspective`,
        `${cap(d.profile.label)} and ${O}: open questions`,
        `Commentary: does ${d.intervention?.name ?? d.gene.name} matter for ${O}?`,
      ])
    default: {
      const cells = d.studyType === 'cells'
      const aged = agedNoun(d.age, cells ? (d.system ?? 'cells') : d.organism!.plural, cells)
      return rng.pick([
        I
          ? `${gist} ` +
            `through ${d.target?.name ?? d.gene.name} ${rng.pick(['inhibition', 'signalling', 'activation'])} in ` +
            `the ${d.tissue.name}`
          : `${gist} via ${d.pathway.name} in the ${d.tissue.name}`,
        `${gist}`,
        `${cap(d.pathway.name)} links ${I ?? d.gene.name} to ${O} in ${aged}`,
      ])
    }
  }
}

/**
 * An age with what it qualifies: "18-month-old mice", but "adults aged 60 to 79 years" and "fibroblasts from donors in
 * midlife" (a human age follows its noun; the title once read "in in midlife fibroblasts").
 */
function agedNoun(age: string, noun: string, cells: boolean): string {
  if (!/^(?:in|aged) /.test(age)) return `${age} ${noun}`
  return cells ? `${noun} from donors ${age}` : `${noun} ${age}`
}

/** "blood" and "blood transcriptomic" make "blood transcriptomic", not "blood blood transcriptomic". */
const withTissue = (tissue: string, modality: string) =>
  modality.startsWith(`${tissue} `) ? modality : `${tissue} ${modality}`

/** '12 months' -> '12-month', as a modifier. */
function adjective(duration: string): string {
  return duration.replace(/^(\d+) (week|month|year)s?$/, '$1-$2')
}

const hallmarkOpening = (s: Slots) =>
  `Interactions between ${s.hallmark} and other hallmarks of aging complicate causal inference.`

/** Background any topic can use, so openings vary beyond the topic's own few sentences. */
const GENERIC: ((s: Slots) => string)[] = [
  (s) =>
    `Aging is the main risk factor for most chronic diseases, and ${s.pathway} is one of the processes thought to ` +
    `connect the two.`,
  (s) =>
    `Work in model organisms has implicated ${s.gene} in the control of lifespan, but data from aged mammals are ` +
    `sparse.`,
  () => 'Interventions that target the biology of aging could delay several age-related diseases at once.',
  (s) => `Most studies of ${s.pathway} have used young animals, leaving its role in late life poorly defined.`,
  () => 'Biomarkers that respond to intervention within months are needed to make trials in older adults feasible.',
  hallmarkOpening,
]

/** Where a result still has to be shown: in vivo for cells, in humans for animals, more widely for people. */
function untested(d: Design): string {
  if (d.studyType === 'cells') return 'in vivo'
  return d.organism?.kind === 'human' ? 'in more diverse populations' : 'in humans'
}

const IMPLICATIONS: ((d: Design) => string)[] = [
  (d) => `The results inform the design of future trials targeting ${d.profile.label}.`,
  (d) => `${cap(d.pathway.name)} may offer a tractable target for interventions in aging.`,
  (d) => `Whether similar effects occur ${untested(d)} warrants investigation.`,
]

const LABELS = ['BACKGROUND: ', 'METHODS: ', 'RESULTS: ', 'CONCLUSIONS: ']

export function writePaper(rng: Random, d: Design): Written {
  const findings = findingsFor(rng, d)
  const slots = {
    gene: d.gene.name,
    pathway: d.pathway.name,
    hallmark: d.hallmark.name,
    intervention: (d.intervention ?? rng.pick(d.profile.interventions)).name,
  }
  const [b1, b2] = rng.sample(d.profile.backgrounds, 2)
  let generic = rng.pick(GENERIC)(slots)
  // A planted paper (planted.ts) must name its hallmark; the hallmark's own opening does.
  if (d.plantedHallmark && !`${b1!(slots)} ${b2!(slots)} ${generic}`.toLowerCase().includes(d.hallmark.name))
    generic = hallmarkOpening(slots)
  const background = `${b1!(slots)} ${b2!(slots)} ${generic}`
  const lead = descriptive(rng, d)
  const results = [lead, ...findings.map((f) => f.sentence), supporting(rng, d)].join(' ')
  const implication = rng.chance(0.7) ? ` ${rng.pick(IMPLICATIONS)(d)}` : ''
  const analysis = d.studyType === 'animal' && !d.intervention ? GENETIC_ANALYSIS : ANALYSIS[d.studyType]
  const sections = [
    `${background} ${aim(rng, d)}`,
    `${methods(rng, d)} ${rng.pick(analysis)}`,
    results,
    conclusion(rng, d, findings[0]) + implication,
  ]
  const structured =
    d.organism?.kind === 'human' && d.studyType !== 'review' && d.studyType !== 'other' && rng.chance(0.4)
  const abstract = structured ? sections.map((s, i) => LABELS[i] + s).join(' ') : sections.join(' ')
  return { title: title(rng, d, findings[0]), abstract, findings }
}
