/**
 * The learned part of the built-in analyzer as it runs in service (model.json, made by scripts/train-analyzer.ts):
 * the study type the written rules are unsure of goes to the learned model, which reads the paper's words beside the
 * rules' conclusions (model.json's `features`: 'combined'; a 'stacked' model also starts from the rules' answer);
 * then every confidence goes through its calibration map, read with where
 * the answer came from (the study type: the rules alone, with or without an abstract, the model agreeing with them or
 * overruling them; relevance: the rule that fired; topic: one map, its sources measured no better), so a reported 0.8
 * is right about four times in five on the hand-judged records.
 */
import shippedJson from './model.json' with { type: 'json' }
import type { PaperInput } from '../types'
import type { Reading } from '../builtin/reading'
import { STUDY_TYPES, type StudyType } from '../../../taxonomy'
import { calibrateGrouped } from './calibration'
import { compile, scorePaper } from './compiled'
import { argmax } from './softmax'
import type { ShippedModel } from './judge'
import { ruleOffset, type RuleOutcome } from './rules-as-features'

const shipped = shippedJson as unknown as ShippedModel

/** Where a study type came from, the second signal its confidence map reads (./calibration.ts). */
export type StudyTypeSource = 'rules' | 'rules, no abstract' | 'model agrees' | 'model overrules'
export type LearnedStudyType = { studyType: StudyType; confidence: number; source: StudyTypeSource }

/**
 * The stacked model's answer given its scores; the rules' own when they are confident enough (never overruled there in
 * cross-validation).
 */
export function chooseStudyType(
  probabilities: number[] | null,
  rules: RuleOutcome,
  hasAbstract = true,
): LearnedStudyType {
  if (!probabilities)
    return {
      studyType: rules.studyType,
      confidence: rules.studyTypeConfidence,
      source: hasAbstract ? 'rules' : 'rules, no abstract',
    }
  const best = argmax(probabilities) // the model's classes are STUDY_TYPES, in order (scripts/train-analyzer.ts)
  const studyType = STUDY_TYPES[best]
  return {
    studyType,
    confidence: probabilities[best],
    source: studyType === rules.studyType ? 'model agrees' : 'model overrules',
  }
}

/** The topic's source for its confidence map: a topic the rules named from its own words, or "other". */
export const topicSource = (topic: string) => (topic === 'other' ? 'other' : 'named')

/**
 * Whether the model reads the paper: only when the rules are unsure, and only with an abstract to read (it learned
 * from records with one; a title and MeSH alone are the rules' ground, test/analysis/builtin-judgement.test.ts).
 */
export const modelReads = (rules: RuleOutcome, hasAbstract: boolean, trustFrom = shipped.trustRulesFrom) =>
  hasAbstract && rules.studyTypeConfidence < trustFrom

export function learnedStudyType(paper: PaperInput, reading: Reading, rules: RuleOutcome): LearnedStudyType {
  if (!modelReads(rules, reading.abstract !== '')) return chooseStudyType(null, rules, reading.abstract !== '')
  const model = compile(shipped.studyType)
  return chooseStudyType(
    scorePaper(
      model,
      paper,
      reading,
      rules,
      shipped.features === 'stacked' ? ruleOffset(STUDY_TYPES, rules.studyType, rules.studyTypeConfidence) : undefined,
    ),
    rules,
  )
}

export type Confidences = { studyType: number; relevance: number; topic: number }
/** Where each answer came from: the study type's source, the relevance rule that fired, the topic's source. */
export type Sources = { studyType: StudyTypeSource; relevance: string; topic: string }

export function calibrated(raw: Confidences, sources: Sources): Confidences {
  const maps = shipped.calibration
  return {
    studyType: calibrateGrouped(maps.studyType, sources.studyType, raw.studyType),
    relevance: calibrateGrouped(maps.relevance, sources.relevance, raw.relevance),
    topic: calibrateGrouped(maps.topic, sources.topic, raw.topic),
  }
}
