/**
 * Newsworthiness and promotional likelihood. Relevance, study type and topic have files of their own
 * (relevance.ts, study-type.ts, topic.ts); all read the paper through reading.ts.
 */
import type { StudyType } from '../../../taxonomy'
import type { Mention } from '../../../lexicon/matcher'
import type { PaperInput } from '../types'
import type { Reading } from './reading'
import { round } from './study-type'

export type TextView = { title: string; abstract: string; titleMentions: Mention[]; abstractMentions: Mention[] }

const TOP_JOURNALS = new RegExp(
  '^(nature|science|cell|the lancet|lancet|new england journal of medicine' +
    '|the new england journal of medicine|jama|nature medicine|nature aging|cell metabolism' +
    '|cell stem cell|nature communications|science translational medicine|aging cell|geroscience' +
    '|nature cell biology|the bmj|bmj)$',
  'i',
)
const NOVELTY =
  /\b(?:first|novel|unprecedented|for the first time|previously unknown|uncover\w*|reveal\w*|identif(?:y|ies|ied) a)\b/i
/** Effects in living organisms that change an outcome, the "in vivo efficacy" of the guidelines. */
const IN_VIVO_EFFECT = new RegExp(
  String.raw`\b(?:extend\w* (?:\w+ )?(?:life ?span|survival|health ?span)|(?:life ?span|health ?span) extension` +
    String.raw`|prevent\w*|revers\w*|restor\w*|rescu\w*|ameliorat\w*|delay\w*|protect\w* against)\b`,
  'i',
)
const SAMPLE = new RegExp(
  String.raw`\b(\d{1,3}(?:,\d{3})+|\d+)\s+(?:\w+\s+){0,2}?(?:participants|patients|subjects|women|men|adults` +
    String.raw`|individuals|people|children|volunteers|persons)\b`,
  'gi',
)

/** The largest sample the abstract names, 0 when none. */
function sampleSize(text: string): number {
  let largest = 0
  for (const m of text.matchAll(SAMPLE)) largest = Math.max(largest, Number(m[1].replace(/,/g, '')))
  return largest
}

/**
 * General scientific importance (guidelines: 0 routine; 1 notable, a novel mechanism or a solid cohort or clinical
 * result; 2 important, a large trial with a clear result or a new mechanism with in vivo efficacy; 3 is left to
 * editors). Reviews, commentaries, case reports and records without an abstract are routine.
 */
export function judgeNewsworthiness(
  paper: PaperInput,
  relevance: number,
  studyType: StudyType,
  reading: Reading,
): number {
  if (!paper.abstract || studyType === 'review' || studyType === 'other') return 0
  const n = sampleSize(reading.abstract)
  let score = {
    human_trial: 0.5,
    human_observational: 0.2,
    animal: 0.5,
    invertebrate: 0.4,
    cells: 0.2,
    computational: 0.1,
    review: 0,
    other: 0,
  }[studyType]
  if (studyType === 'human_trial' && n >= 100) score += 0.3
  if (studyType === 'human_trial' && n >= 1000) score += 0.6
  if (studyType === 'human_observational' && n >= 5000) score += 0.5
  if ((studyType === 'animal' || studyType === 'invertebrate') && IN_VIVO_EFFECT.test(reading.subject)) score += 0.4
  if (NOVELTY.test(reading.subject)) score += 0.2
  if (relevance >= 2.5) score += 0.5
  if (TOP_JOURNALS.test(paper.journal.trim())) score += 0.7
  if (paper.preprint) score -= 0.1
  return Math.max(0, Math.min(3, Math.floor(score)))
}

/**
 * Counted, never captured. The words share their \b...\b (same matches, in the same order of preference): the
 * engine then tries them only at word starts, a third faster than one \b-led alternative each.
 */
const PROMO = new RegExp(
  String.raw`[®™]|\b(?:buy|shop|discount|order now|our (?:product|supplement|formula)|sponsored|press release` +
    String.raw`|available (?:now|at)|clinically proven|free shipping|customers?)\b`,
  'gi',
)

export function judgePromotional(paper: PaperInput, reading: Reading): number {
  const hits = (reading.all.match(PROMO) ?? []).length
  const researchy =
    paper.meshHeadings.length > 0 || /\b(we|results|methods|significantly|p ?[<=])\b/i.test(reading.abstract)
  const p = 0.02 + hits * 0.2 + (researchy ? 0 : 0.1) + (paper.abstract ? 0 : 0.05)
  return round(Math.min(0.98, p))
}
