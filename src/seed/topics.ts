/**
 * What a topic profile holds and how one is built: what a paper on the topic studies (study types,
 * interventions, genes, pathways, outcomes, tissues, hallmarks), how its abstract opens and how an
 * indexer would file it. Interventions, genes and pathways come from the lexicon's topic tags;
 * the profiles themselves are in topic-profiles.ts.
 */
import { entriesOfType, TOPICS, type LexiconEntry, type Topic } from '../lexicon/lexicon'
import { entry, outcome, type Outcome } from './outcomes'
import { Weighted } from './random'

export type StudyType =
  | 'human_trial'
  | 'human_observational'
  | 'animal'
  | 'invertebrate'
  | 'cells'
  | 'computational'
  | 'review'
  | 'other'
export type TopicSlug = Topic | 'other'

export const STUDY_TYPES: StudyType[] = [
  'human_trial',
  'human_observational',
  'animal',
  'invertebrate',
  'cells',
  'computational',
  'review',
  'other',
]
export const TOPIC_SLUGS: TopicSlug[] = [...TOPICS, 'other']

/** The names a background sentence may use. */
export type Slots = { gene: string; pathway: string; hallmark: string; intervention: string }

export type TopicProfile = {
  slug: TopicSlug
  label: string // as a sentence names it: "cellular senescence"
  studyTypes: Weighted<StudyType>
  interventions: LexiconEntry[]
  genes: LexiconEntry[]
  pathways: LexiconEntry[]
  outcomes: Outcome[]
  tissues: LexiconEntry[]
  hallmarks: LexiconEntry[]
  backgrounds: ((s: Slots) => string)[]
  mesh: string[]
  keywords: string[]
}

/** GO names such as "DNA damage response, signal transduction by p53 class mediator" read badly. */
const readable = (e: LexiconEntry) => !e.name.includes(',') && e.name.length <= 45

const tagged = (type: 'intervention' | 'gene' | 'pathway', topic: Topic) =>
  entriesOfType(type).filter((e) => e.topics.includes(topic) && readable(e))
const untagged = (type: 'intervention' | 'gene' | 'pathway') =>
  entriesOfType(type).filter((e) => e.topics.length === 0 && readable(e))

const GENERAL_INTERVENTIONS = untagged('intervention')
const GENERAL_GENES = untagged('gene')
const GENERAL_PATHWAYS = untagged('pathway')

const words = (list: string) => list.trim().split(/\s+/)
export const keys = (type: string, list: string) => words(list).map((key) => entry(`${type}:${key}`))
const outs = (list: string) => words(list).map((typeKey) => outcome(typeKey))

export type Spec = {
  label: string
  studyTypes: Partial<Record<StudyType, number>>
  interventions?: LexiconEntry[]
  genes?: LexiconEntry[]
  pathways?: LexiconEntry[]
  outcomes: string
  tissues: string
  hallmarks: string
  backgrounds: ((s: Slots) => string)[]
  mesh: string[]
  keywords: string[]
}

export function profile(slug: TopicSlug, spec: Spec): TopicProfile {
  const topic = slug === 'other' ? null : slug
  // own entries three times over, so a topic's papers mostly name its own genes and drugs
  const mixed = <T>(own: T[], general: T[]) =>
    own.length > 0 ? [...own, ...own, ...own, ...general.slice(0, 8)] : general
  return {
    slug,
    label: spec.label,
    studyTypes: new Weighted(STUDY_TYPES.map((t) => [t, spec.studyTypes[t] ?? 1] as const)),
    interventions: spec.interventions ?? mixed(topic ? tagged('intervention', topic) : [], GENERAL_INTERVENTIONS),
    genes: spec.genes ?? mixed(topic ? tagged('gene', topic) : [], GENERAL_GENES),
    pathways: spec.pathways ?? mixed(topic ? tagged('pathway', topic) : [], GENERAL_PATHWAYS),
    outcomes: outs(spec.outcomes),
    tissues: keys('tissue', spec.tissues),
    hallmarks: keys('hallmark', spec.hallmarks),
    backgrounds: spec.backgrounds,
    mesh: spec.mesh,
    keywords: spec.keywords,
  }
}
