/**
 * The built-in analyzer: deterministic, offline and fast. One call reads a paper record and returns
 * its judgement, entities, claims and, for papers of newsworthiness 2 or more, a story with its
 * support score.
 */
import { findMentions } from './matcher'
import { splitSentences } from './sentences'
import { judgeNewsworthiness, judgePromotional, type TextView } from './judge'
import { readPaper } from './reading'
import { judgeByRules } from './rules'
import { calibrated, learnedStudyType } from '../learned/shipped'
import { extractClaims, latinName } from './claims'
import { extractEntities } from './entities'
import { writeStory } from './story'
import { checkSupport } from '../support'
import { lookupTerm } from './matcher'
import type { Extraction, FoundClaim, Judgement, PaperInput, StoryDraft } from '../types'
import { AGING_RELEVANCE, type StudyType } from '../../taxonomy'
import { entryByKey } from '../../lexicon/lexicon'
import type { Mention } from './matcher'

export const BUILTIN_MODEL = 'geroscope-builtin-1'
/** The built-in analyzer's rules version; bump it when its behaviour changes so operators can re-run. */
export const BUILTIN_PROMPT_VERSION = 'builtin-5' // 2: issue 14, judging from the text by the judgement guidelines; 3: issue 14 round 2 (acronyms as the record defines them, cognitive ageing only in old people, meta-analyses are reviews); 4: round 3 (a review's title says its subject; antibody-generation papers are methods); 5: issue 34 (the learned study type where the rules are unsure; calibrated confidences); and issue 35 (claim sides: whole noun phrases next to their verb, lexicon names resolved)

export type BuiltinAnalysis = Extraction & { judgement: Judgement; story: (StoryDraft & { support: number }) | null }

const DESIGN: Record<StudyType, string> = {
  human_trial: 'randomized controlled trial', human_observational: 'observational', animal: 'in vivo', invertebrate: 'in vivo',
  cells: 'in vitro', computational: 'in silico', review: 'literature review', other: 'other',
}
const EVIDENCE_LEVEL: Record<StudyType, string> = {
  human_trial: 'rct', human_observational: 'observational', animal: 'animal', invertebrate: 'invertebrate',
  cells: 'in vitro', computational: 'computational', review: 'review', other: 'opinion',
}
const HUMAN_TYPES: StudyType[] = ['human_trial', 'human_observational']

/** The organism the study is in: MeSH first (indexers read the paper), then the most named in the text. */
function mainOrganism(paper: PaperInput, view: TextView, studyType: StudyType): string | null {
  const fromMesh = paper.meshHeadings.map((h) => lookupTerm(h.descriptor)).filter((e) => e?.type === 'organism' && e.key !== 'NCBITaxon:9606')
  if (fromMesh[0]) return fromMesh[0].key
  const counts = new Map<string, number>()
  for (const m of [...view.titleMentions, ...view.titleMentions, ...view.abstractMentions]) {
    if (m.entry.type === 'organism') counts.set(m.entry.key, (counts.get(m.entry.key) ?? 0) + 1)
  }
  const top = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0]
  if (top) return top
  return HUMAN_TYPES.includes(studyType) || paper.meshHeadings.some((h) => h.descriptor === 'Humans') ? 'NCBITaxon:9606' : null
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
    abstractMentions: all.filter((m) => m.start >= offset).map((m) => ({ ...m, start: m.start - offset, end: m.end - offset })),
  }
}

export function analyzePaper(paper: PaperInput): BuiltinAnalysis {
  const abstract = paper.abstract ?? ''
  const view: TextView = { title: paper.title, abstract, ...mentionsOf(paper.title, abstract) }
  const sentences = splitSentences(abstract)
  const reading = readPaper(paper)
  const { relevance, topic, outcome } = judgeByRules(paper, reading)
  // The rules' study type, or the learned model's where the rules are unsure; every confidence calibrated.
  const study = learnedStudyType(paper, reading, outcome)
  const confidence = calibrated({ studyType: study.confidence, relevance: relevance.confidence, topic: topic.confidence })
  const organismKey = mainOrganism(paper, view, study.studyType)
  const organismMention = organismKey ? entryByKey('organism', organismKey) : undefined
  const claims: FoundClaim[] = extractClaims(sentences, {
    organism: organismMention ? latinName(organismMention) : null,
    design: DESIGN[study.studyType],
    evidenceLevel: EVIDENCE_LEVEL[study.studyType],
    preprint: paper.preprint,
    review: study.studyType === 'review',
  }, 6, view.abstractMentions)
  const entities = extractEntities({ paper, titleMentions: view.titleMentions, abstractMentions: view.abstractMentions, sentences, claims, mainOrganism: organismKey })
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
  let story: BuiltinAnalysis['story'] = null
  // Stories are the service's ageing news: an important paper outside ageing biology gets none.
  if (judgement.newsworthiness >= 2 && judgement.relevance >= AGING_RELEVANCE && paper.abstract) {
    const draft = writeStory(paper, judgement, entities, claims)
    const { support } = checkSupport(draft, `${paper.title} ${abstract}`, HUMAN_TYPES.includes(study.studyType))
    story = { ...draft, support }
  }
  return { judgement, entities, claims, story }
}
