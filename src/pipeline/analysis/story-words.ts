/**
 * The words a story may use for a paper's design and population, taken from the paper's judgement (its study
 * type, docs/judgement-guidelines.md) and its record (publication types, title, abstract), never from a
 * slot that can disagree with them: a human trial is "in people" whatever organism its background names, an
 * invertebrate study is never a trial, and where the record states a design the judgement does not (a record tagged
 * "Observational Study" judged a trial), the story says neither and calls it a study.
 */
import type { StudyType } from '../../taxonomy'

export const HUMAN = 'NCBITaxon:9606'

/** The lexicon's invertebrates (worms, flies, yeasts, bees); every other organism of the lexicon is a vertebrate. */
const INVERTEBRATES = new Set([
  'NCBITaxon:6239',
  'NCBITaxon:7227',
  'NCBITaxon:4932',
  'NCBITaxon:4896',
  'NCBITaxon:7460',
])

export type OrganismKind = 'human' | 'vertebrate' | 'invertebrate'
export const organismKind = (key: string): OrganismKind =>
  key === HUMAN ? 'human' : INVERTEBRATES.has(key) ? 'invertebrate' : 'vertebrate'

export const inPeople = (studyType: StudyType | null) =>
  studyType === 'human_trial' || studyType === 'human_observational'

/**
 * Whether an organism can be the one a study of this type was done in: people for human studies, a vertebrate for an
 * animal study, an invertebrate (worms, flies, yeast, fungi, plants) for an invertebrate study; cells come from any.
 */
export function organismFits(studyType: StudyType | null, key: string): boolean {
  const kind = organismKind(key)
  switch (studyType) {
    case 'human_trial':
    case 'human_observational':
      return kind === 'human'
    case 'animal':
      return kind === 'vertebrate'
    case 'invertebrate':
      return kind === 'invertebrate'
    default:
      return true
  }
}

/** How a story names an organism's members ("in mice"). */
const PLURAL: Record<string, string> = {
  'NCBITaxon:9606': 'people',
  'NCBITaxon:10090': 'mice',
  'NCBITaxon:10116': 'rats',
  'NCBITaxon:6239': 'worms',
  'NCBITaxon:7227': 'fruit flies',
  'NCBITaxon:4932': 'yeast',
  'NCBITaxon:4896': 'fission yeast',
  'NCBITaxon:7955': 'zebrafish',
  'NCBITaxon:105023': 'killifish',
  'NCBITaxon:10181': 'naked mole-rats',
  'NCBITaxon:8090': 'medaka',
  'NCBITaxon:9544': 'rhesus macaques',
  'NCBITaxon:9541': 'cynomolgus macaques',
  'NCBITaxon:9483': 'marmosets',
  'NCBITaxon:30608': 'mouse lemurs',
  'NCBITaxon:9598': 'chimpanzees',
  'NCBITaxon:9615': 'dogs',
  'NCBITaxon:9685': 'cats',
  'NCBITaxon:9823': 'pigs',
  'NCBITaxon:9913': 'cattle',
  'NCBITaxon:9796': 'horses',
  'NCBITaxon:9986': 'rabbits',
  'NCBITaxon:10141': 'guinea pigs',
  'NCBITaxon:10036': 'hamsters',
  'NCBITaxon:7460': 'honey bees',
}
const ADJECTIVE: Record<string, string> = {
  'NCBITaxon:9606': 'human',
  'NCBITaxon:10090': 'mouse',
  'NCBITaxon:10116': 'rat',
}

export type RecordFacts = {
  title: string
  abstract: string | null
  publicationTypes: string[]
  meshHeadings?: { descriptor: string }[]
  journal?: string
}

/** "Mendelian randomization" is a method of analysing genes, not a randomised trial. */
const RANDOMISED = /\b(?<!mendelian )randomi[sz](?:ed|ation)\b|\bplacebo\b|\bdouble[- ]blind/i
const RCT_TYPE = /^randomized controlled trial$/i
const TRIAL_TYPE = new RegExp(
  '^(?:randomized controlled trial|controlled clinical trial|pragmatic clinical trial' +
    '|clinical trial(?:, phase [iv]+)?|equivalence trial|adaptive clinical trial)$',
  'i',
)
/** A trial of the authors' own: "this trial", "a randomised trial", "were randomised"; "future trials" is not one. */
const OWN_TRIAL = new RegExp(
  String.raw`\b(?:this|our|the present|a|an|in (?:a|an|this)) (?:[\w,-]+ ){0,4}?trial\b(?! (?:is|are|would be` +
    String.raw`|will be|should be|could be) (?:needed|warranted|required))|\bwere (?:randomi[sz]ed` +
    String.raw`|randomly (?:assigned|allocated))\b`,
  'i',
)
const OBSERVATIONAL_TYPE = new RegExp(
  '^(?:observational study|cohort studies|cross-sectional studies|case-control studies' +
    '|longitudinal studies|prospective studies|retrospective studies)$',
  'i',
)
const COHORT = /\bcohort\b/i
const CROSS_SECTIONAL = /\bcross-sectional\b/i
const CASE_CONTROL = /\bcase-control\b/i
const META = /\bmeta-analys[ie]s\b/i

/** The design noun phrase a story may use for this paper, without its article ("randomised trial", "cohort study"). */
export function designPhrase(studyType: StudyType, record: RecordFacts): string {
  const text = `${record.title}\n${record.abstract ?? ''}`
  const types = record.publicationTypes.map((t) => t.trim())
  const mesh = (record.meshHeadings ?? []).map((h) => h.descriptor)
  const observationalRecord =
    types.some((t) => OBSERVATIONAL_TYPE.test(t)) || mesh.some((d) => OBSERVATIONAL_TYPE.test(d))
  const trialRecord = types.some((t) => TRIAL_TYPE.test(t)) || RANDOMISED.test(text) || OWN_TRIAL.test(text)
  switch (studyType) {
    case 'human_trial':
      // The judgement says trial but the record says otherwise and nothing in it says trial: name no design.
      if (!trialRecord && observationalRecord) return 'study'
      return types.some((t) => RCT_TYPE.test(t)) || RANDOMISED.test(text) ? 'randomised trial' : 'clinical trial'
    case 'human_observational':
      return COHORT.test(text)
        ? 'cohort study'
        : CROSS_SECTIONAL.test(text)
          ? 'cross-sectional study'
          : CASE_CONTROL.test(text)
            ? 'case-control study'
            : 'observational study'
    case 'animal':
      return 'animal study'
    case 'invertebrate':
      return 'laboratory study'
    case 'cells':
      return 'cell study'
    case 'computational':
      return 'analysis of existing data'
    case 'review':
      return META.test(text) || types.some((t) => /^meta-analysis$/i.test(t)) ? 'review and meta-analysis' : 'review'
    case 'other':
      return 'paper'
  }
}

/**
 * Where the study was done, as a story says it after "in" ("people", "mice", "human cells"), or null when the
 * judgement and the organism do not say: a non-human organism never stands for a human study's population, a
 * human organism never for an animal's, and reviews, commentaries and analyses of data have no population of their own.
 */
export function population(studyType: StudyType, organismKey: string | null): string | null {
  if (inPeople(studyType)) return 'people'
  if (!organismKey || !organismFits(studyType, organismKey)) return null
  if (studyType === 'cells') return ADJECTIVE[organismKey] ? `${ADJECTIVE[organismKey]} cells` : null
  if (studyType === 'animal' || studyType === 'invertebrate') return PLURAL[organismKey] ?? null
  return null
}

/** The organism the study was done in, the judgement first: people for human studies, else the first that fits. */
export function studyOrganism(studyType: StudyType, candidates: (string | null | undefined)[]): string | null {
  if (inPeople(studyType)) return HUMAN
  return candidates.find((k): k is string => !!k && organismFits(studyType, k)) ?? null
}

/** "a randomised trial", "an animal study". */
export const withArticle = (phrase: string) => (/^[aeiou]/i.test(phrase) ? `an ${phrase}` : `a ${phrase}`)

/** Design words and the study types whose meaning they fit (a title that says "review" is not a trial's headline). */
const DESIGN_WORDS: [RegExp, StudyType[]][] = [
  // A trial, a cohort: this paper's design. Trials and cohorts (plural) can also be what a review brings together.
  [/\btrial\b|\bRCT\b/i, ['human_trial']],
  [/\btrials\b|\b(?<!mendelian )randomi[sz](?:ed|ation)\b|\bplacebo\b|\bRCTs\b/i, ['human_trial', 'review']],
  [
    /\bcohort\b|\bobservational(?! studies)\b|\bcross-sectional\b|\bcase-control\b|\bregistry\b/i,
    ['human_observational', 'computational'],
  ],
  [/\bcohorts\b|\bobservational studies\b/i, ['human_observational', 'computational', 'review']],
  [/\breviews?\b|\bmeta-analys[ie]s\b/i, ['review']],
  [/\bin vitro\b|\bcultured\b|\bcell lines?\b/i, ['cells', 'animal', 'invertebrate']],
  [/\bin vivo\b|\bmouse model\b|\brat model\b|\banimal models?\b/i, ['animal']],
  [/\bcommentary\b|\beditorial\b|\bopinion\b|\bletter to the editor\b|\bto the editor\b/i, ['other']],
]
const PEOPLE_WORDS = /\b(?:patients|participants|people|adults|women|men|children|infants|volunteers|humans)\b/i
const ANIMAL_WORDS = /\b(?:mice|mouse|rats?|rodents?|zebrafish|killifish|monkeys?|macaques?|primates?|dogs?|pigs?)\b/i
const INVERTEBRATE_WORDS = /\b(?:yeasts?|worms?|C\. elegans|Caenorhabditis|Drosophila|flies|fly|nematodes?)\b/i

/**
 * Whether a text (a title a story would use as its headline) says nothing against the study type: no design word of
 * another type, no population the type is not done in.
 */
export function fitsStudyType(text: string, studyType: StudyType): boolean {
  if (DESIGN_WORDS.some(([re, fits]) => re.test(text) && !fits.includes(studyType))) return false
  if (
    PEOPLE_WORDS.test(text) &&
    !inPeople(studyType) &&
    studyType !== 'computational' &&
    studyType !== 'review' &&
    studyType !== 'other'
  )
    return false
  if (ANIMAL_WORDS.test(text) && (inPeople(studyType) || studyType === 'invertebrate')) return false
  if (INVERTEBRATE_WORDS.test(text) && (inPeople(studyType) || studyType === 'animal' || studyType === 'cells'))
    return false
  return true
}
