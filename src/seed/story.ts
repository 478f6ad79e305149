/**
 * The operator's story about a newsworthy paper: headline, one-sentence dek, plain-text body
 * paragraphs, why it matters and caveats that name the study type and organism.
 */
import type { Design } from './design'
import type { Finding } from './findings'
import { cap } from './capitalize'
import { measure, organismLabel, population, thousands } from './phrases'
import type { Random } from './random'

export type StoryText = { headline: string; dek: string; body: string; whyItMatters: string; caveats: string }

const DESIGN_PHRASE: Record<Design['studyType'], string> = {
  human_trial: 'a randomized trial',
  human_observational: 'an observational cohort study',
  animal: 'an animal study',
  invertebrate: 'a study in invertebrates',
  cells: 'a cell-culture study',
  computational: 'a computational analysis',
  review: 'a review of published studies',
  other: 'a commentary',
}

const LIMITS: Record<Design['studyType'], string[]> = {
  human_trial: [
    'The trial was short and used surrogate end points rather than clinical events.',
    'Participants were mostly healthy volunteers, so the results may not apply to frail older people.',
  ],
  human_observational: [
    'Associations in observational data do not show cause and effect, and residual confounding is likely.',
    'The cohort was largely of European ancestry, which limits generalisability.',
  ],
  animal: [
    'Results in laboratory animals often fail to translate to people.',
    'Doses used in animals do not map simply onto human doses.',
  ],
  invertebrate: [
    'Invertebrate lifespan effects are a long way from human health outcomes.',
    'Lifespan assays in invertebrates are sensitive to temperature and diet.',
  ],
  cells: [
    'Cultured cells lack the tissue context in which senescent and aged cells normally live.',
    'Effects in a dish need confirmation in animals before any clinical claim.',
  ],
  computational: [
    'The model was trained on existing cohorts and needs prospective validation.',
    'Predictive accuracy does not show that the measured process causes aging.',
  ],
  review: ['A review can only be as strong as the studies it draws on, many of which are small.'],
  other: ['This is an opinion piece and presents no new data.'],
}

function headline(rng: Random, d: Design, first: Finding | undefined): string {
  const gist = first?.gist ?? `${d.profile.label} under the microscope`
  if (d.studyType === 'human_trial') return rng.pick([`In a ${thousands(d.n)}-person trial, ${gist}`, cap(gist)])
  if (d.studyType === 'human_observational') return rng.pick([`Large cohort study: ${gist}`, cap(gist)])
  if (d.studyType === 'animal' || d.studyType === 'invertebrate') return rng.pick([cap(gist), `Lab study: ${gist}`])
  return cap(gist)
}

export function writeStory(rng: Random, d: Design, findings: Finding[], title: string): StoryText {
  const first = findings[0]
  const who = population(d)
  const secondary = d.studyType === 'review' || d.studyType === 'other' || !d.organism
  // A review or commentary concludes or argues; "a review of published studies of the literature reports" said it
  // twice.
  const says = d.studyType === 'review' ? 'concludes' : d.studyType === 'other' ? 'argues' : 'reports'
  const dek =
    `${cap(DESIGN_PHRASE[d.studyType])}${secondary ? '' : ` in ${who}`} ${says} ` +
    `that ${first?.gist ?? `${measure(d.primary)} is linked to ${d.profile.label}`}.`
  const did = d.intervention
    ? `tested ${d.intervention.name}`
    : `looked at ${d.exposure ? measure(d.exposure) : d.gene.name}`
  // The findings as one paragraph, the first sentence continuing "The main results: ".
  const results = findings
    .map((f, i) => (i === 0 ? f.sentence.charAt(0).toLowerCase() + f.sentence.slice(1) : f.sentence))
    .join(' ')
  const paragraphs = [
    secondary
      ? `Researchers ${d.preprint ? 'posting a preprint' : 'writing'} under the title "${title}" weigh the evidence ` +
        `on ${d.intervention?.name ?? d.gene.name} and ${measure(d.primary)}.`
      : `Researchers ${d.preprint ? 'posting a preprint' : 'writing'} under the title "${title}" ${did} ` +
        `in ${who}, focusing on ${measure(d.primary)}.`,
    findings.length > 0
      ? `The main results: ${results}`
      : `The authors pull together what is known about ${d.profile.label}.`,
    `The work touches ${d.hallmark.name}, one of the hallmarks of aging, and points to ${d.pathway.name} as a ` +
      `possible mechanism.`,
  ]
  if (rng.chance(0.5))
    paragraphs.push(
      `Independent replication ${d.studyType === 'human_trial' ? 'in larger and longer trials' : 'in other labs'} ` +
        `will decide how much weight the finding can bear.`,
    )
  const prospect = d.intervention
    ? `${d.intervention.name} is a candidate that could be tested in people`
    : `${measure(d.primary)} is a practical read-out for future trials`
  const whyItMatters = rng.pick([
    `${cap(d.profile.label)} is one of the most active areas of geroscience, and ${prospect}.`,
    `If it holds up, the result adds to the case that ${measure(d.primary)} can be changed by targeting the biology ` +
      `of aging itself.`,
    `Few studies of ${d.profile.label} measure ${measure(d.primary)} directly, so this is a useful data point.`,
  ])
  const caveats =
    `This was ${DESIGN_PHRASE[d.studyType]} ` +
    `in ${organismLabel(d)}.` +
    ` ${rng.pick(LIMITS[d.studyType])}${d.preprint ? ' The paper is a preprint and has not been peer reviewed.' : ''}`
  return { headline: headline(rng, d, first), dek, body: paragraphs.join('\n\n'), whyItMatters, caveats }
}
