/**
 * The built-in analyzer: deterministic, offline and fast. One call reads a paper record and returns
 * its judgement, entities, claims and, for papers of newsworthiness 2 or more, a story with its
 * support score.
 */
import { findMentions } from '../../../lexicon/matcher'
import { splitSentences } from './sentences'
import { judgeNewsworthiness, judgePromotional, type TextView } from './judge'
import { readPaper } from './reading'
import { judgeByRules } from './rules'
import { calibrated, learnedStudyType, topicSource } from '../learned/shipped'
import { extractClaims, latinName } from './claims'
import { extractEntities } from './entities'
import { writeStory } from './story'
import { checkSupport, claimOrganismKeys } from '../support'
import { HUMAN, organismFits } from '../story-words'
import { lookupTerm } from '../../../lexicon/matcher'
import type { Extraction, FoundClaim, Judgement, PaperInput, StoryDraft } from '../types'
import { AGING_RELEVANCE, type StudyType } from '../../../taxonomy'
import { entryByKey } from '../../../lexicon/lexicon'
import type { Mention } from '../../../lexicon/matcher'

export const BUILTIN_MODEL = 'geroscope-builtin-1'
/**
 * The built-in analyzer's rules version; bump it when its behaviour changes so operators can re-run.
 * Versions: 2, judging from the text by docs/judgement-guidelines.md; 3, acronyms as the record defines them, cognitive
 * ageing only in old people, meta-analyses are reviews; 4, a review's title says its subject, antibody-generation
 * papers are methods; 5, the learned study type where the rules are unsure, calibrated confidences, claim sides as
 * whole noun phrases next to their verb with lexicon names resolved, the study organism of the kind the study type
 * says, stories taking design and population words from the judgement and record and support reading them against both;
 * 6, confidence maps fitted on the tuning half and the calibration set, claim sides read clause by clause (a fragment
 * is dropped, not stored); 7, answers to other papers, book reviews, case series, case reports titled "in a patient"
 * and review protocols are other, a case report with a systematic review and a review titled in another language are
 * reviews; confidences mapped by their source as well as their value (relevance by the rule that fired, study type by
 * the rules alone, with or without an abstract, or the model agreeing or overruling); 8, the study-type model trained
 * on 4,710 records (7,100 more read by hand), rare classes weighted, consulted wherever the rules are below 0.95.
 */
export const BUILTIN_PROMPT_VERSION = 'builtin-8'

export type BuiltinAnalysis = Extraction & {
  judgement: Judgement
  story: (StoryDraft & { support: number; problems: string[] }) | null
}

const DESIGN: Record<StudyType, string> = {
  human_trial: 'randomized controlled trial',
  human_observational: 'observational',
  animal: 'in vivo',
  invertebrate: 'in vivo',
  cells: 'in vitro',
  computational: 'in silico',
  review: 'literature review',
  other: 'other',
}
const EVIDENCE_LEVEL: Record<StudyType, string> = {
  human_trial: 'rct',
  human_observational: 'observational',
  animal: 'animal',
  invertebrate: 'invertebrate',
  cells: 'in vitro',
  computational: 'computational',
  review: 'review',
  other: 'opinion',
}
const HUMAN_TYPES: StudyType[] = ['human_trial', 'human_observational']

/**
 * The organism the study is in. The study type decides its kind (taxonomy: a human study is in people, an animal
 * study in a vertebrate, an invertebrate study in an invertebrate), so "from yeast to primates" in a trial's
 * background never makes yeast the trial's organism. Within that kind: MeSH first (indexers read the paper), then
 * the most named in the text.
 */
function mainOrganism(paper: PaperInput, view: TextView, studyType: StudyType): string | null {
  if (HUMAN_TYPES.includes(studyType)) return HUMAN
  const fits = (key: string) => organismFits(studyType, key)
  const fromMesh = paper.meshHeadings
    .map((h) => lookupTerm(h.descriptor))
    .filter((e) => e?.type === 'organism' && e.key !== HUMAN && fits(e.key))
  if (fromMesh[0]) return fromMesh[0].key
  const counts = new Map<string, number>()
  for (const m of [...view.titleMentions, ...view.titleMentions, ...view.abstractMentions]) {
    if (m.entry.type === 'organism' && fits(m.entry.key)) counts.set(m.entry.key, (counts.get(m.entry.key) ?? 0) + 1)
  }
  const top = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0]
  if (top) return top
  return studyType !== 'animal' &&
    studyType !== 'invertebrate' &&
    paper.meshHeadings.some((h) => h.descriptor === 'Humans')
    ? HUMAN
    : null
}

/**
 * Title and abstract read as one text, so an abbreviation the abstract defines or backs up counts in
 * the title too; offsets come back relative to each part.
 */
function mentionsOf(title: string, abstract: string): { titleMentions: Mention[]; abstractMentions: Mention[] } {
  const offset = title.length + 2
  const all = findMentions(`${title}\n\n${abstract}`)
  return {
    titleMentions: all.filter((m) => m.end <= title.length),
    abstractMentions: all
      .filter((m) => m.start >= offset)
      .map((m) => ({ ...m, start: m.start - offset, end: m.end - offset })),
  }
}

/** Entities and claims read with the study type's organism and design (a correction of the study type changes them). */
function extractFor(paper: PaperInput, view: TextView, studyType: StudyType): Extraction {
  const sentences = splitSentences(paper.abstract ?? '')
  const organismKey = mainOrganism(paper, view, studyType)
  const organismMention = organismKey ? entryByKey('organism', organismKey) : undefined
  const claims: FoundClaim[] = extractClaims(
    sentences,
    {
      organism: organismMention ? latinName(organismMention) : null,
      design: DESIGN[studyType],
      evidenceLevel: EVIDENCE_LEVEL[studyType],
      preprint: paper.preprint,
      review: studyType === 'review',
    },
    6,
    view.abstractMentions,
  ).map(aboutPeople)
  const entities = extractEntities({
    paper,
    titleMentions: view.titleMentions,
    abstractMentions: view.abstractMentions,
    sentences,
    claims,
    mainOrganism: organismKey,
  })
  return { entities, claims }
}

/** A sentence about patients or participants that names no organism is about people, whatever the paper's organism. */
const PEOPLE = new RegExp(
  String.raw`\b(?:patients?|participants|volunteers|(?:older |elderly |healthy )?adults|women|men|children` +
    String.raw`|humans|people|individuals)\b`,
  'i',
)
function aboutPeople(claim: FoundClaim): FoundClaim {
  if (!claim.organism || claim.organism === 'Homo sapiens' || !PEOPLE.test(claim.evidence)) return claim
  if (findMentions(claim.evidence).some((m) => m.entry.type === 'organism')) return claim
  return { ...claim, organism: 'Homo sapiens' }
}

const textView = (paper: PaperInput): TextView => ({
  title: paper.title,
  abstract: paper.abstract ?? '',
  ...mentionsOf(paper.title, paper.abstract ?? ''),
})

/** Whether a paper with this judgement gets a story: ageing news only, and only from an abstract. */
export const deservesStory = (
  paper: Pick<PaperInput, 'abstract'>,
  judgement: Pick<Judgement, 'newsworthiness' | 'relevance'>,
) => judgement.newsworthiness >= 2 && judgement.relevance >= AGING_RELEVANCE && !!paper.abstract

/** The story for `judgement` with its support and the check's reasons; null without an abstract. */
export function storyFor(
  paper: PaperInput,
  judgement: Judgement,
  extraction?: Extraction,
): (StoryDraft & { support: number; problems: string[] }) | null {
  if (!paper.abstract) return null
  const { entities, claims } = extraction ?? extractFor(paper, textView(paper), judgement.studyType)
  const draft = writeStory(paper, judgement, entities, claims)
  const { support, problems } = checkSupport(draft, `${paper.title} ${paper.abstract}`, {
    studyType: judgement.studyType,
    record: paper,
    claimOrganisms: claimOrganismKeys(claims),
  })
  return { ...draft, support, problems }
}

export function analyzePaper(paper: PaperInput): BuiltinAnalysis {
  const view = textView(paper)
  const reading = readPaper(paper)
  const { relevance, topic, outcome } = judgeByRules(paper, reading)
  // The rules' study type, or the learned model's where the rules are unsure; every confidence calibrated.
  const study = learnedStudyType(paper, reading, outcome)
  const confidence = calibrated(
    { studyType: study.confidence, relevance: relevance.confidence, topic: topic.confidence },
    { studyType: study.source, relevance: relevance.rule, topic: topicSource(topic.topic) },
  )
  const extraction = extractFor(paper, view, study.studyType)
  const judgement: Judgement = {
    relevance: relevance.relevance,
    relevanceConfidence: confidence.relevance,
    newsworthiness: judgeNewsworthiness(paper, relevance.relevance, study.studyType, reading),
    studyType: study.studyType,
    studyTypeConfidence: confidence.studyType,
    topic: topic.topic,
    topicConfidence: confidence.topic,
    promotional: judgePromotional(paper, reading),
  }
  // Stories are the service's ageing news: an important paper outside ageing biology gets none.
  const story = deservesStory(paper, judgement) ? storyFor(paper, judgement, extraction) : null
  return { judgement, ...extraction, story }
}
