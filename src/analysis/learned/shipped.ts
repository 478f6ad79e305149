/**
 * The learned part of the built-in analyzer as it runs in service (model.json, made by scripts/train-analyzer.ts):
 * the study type the written rules are unsure of goes to the stacked model, which starts from the rules' answer
 * and corrects it from the paper's words; then every confidence goes through its calibration map, so a reported
 * 0.8 is right about four times in five on the hand-judged records.
 */
import shippedJson from './model.json' with { type: 'json' }
import type { PaperInput } from '../types'
import type { Reading } from '../builtin/reading'
import { STUDY_TYPES, type StudyType } from '../../taxonomy'
import { calibrate } from './calibration'
import { compile, scorePaper } from './compiled'
import { argmax } from './softmax'
import type { ShippedModel } from './judge'
import { ruleOffset, type RuleOutcome } from './rules-as-features'

const shipped = shippedJson as unknown as ShippedModel

export type LearnedStudyType = { studyType: StudyType; confidence: number }

/** The stacked model's answer given its scores; the rules' own when they are confident enough (never overruled there in cross-validation). */
export function chooseStudyType(probabilities: number[] | null, rules: RuleOutcome): LearnedStudyType {
  if (!probabilities) return { studyType: rules.studyType, confidence: rules.studyTypeConfidence }
  const best = argmax(probabilities) // the model's classes are STUDY_TYPES, in order (scripts/train-analyzer.ts)
  return { studyType: STUDY_TYPES[best], confidence: probabilities[best] }
}

/**
 * Whether the model reads the paper: only when the rules are unsure, and only with an abstract to read (it learned
 * from records with one; a title and MeSH alone are the rules' ground, test/analysis/builtin-judgement.test.ts).
 */
export const modelReads = (rules: RuleOutcome, hasAbstract: boolean, trustFrom = shipped.trustRulesFrom) => hasAbstract && rules.studyTypeConfidence < trustFrom

export function learnedStudyType(paper: PaperInput, reading: Reading, rules: RuleOutcome): LearnedStudyType {
  if (!modelReads(rules, reading.abstract !== '')) return chooseStudyType(null, rules)
  const model = compile(shipped.studyType)
  return chooseStudyType(scorePaper(model, paper, reading, rules, ruleOffset(STUDY_TYPES, rules.studyType, rules.studyTypeConfidence)), rules)
}

export type Confidences = { studyType: number; relevance: number; topic: number }

export function calibrated(raw: Confidences): Confidences {
  const maps = shipped.calibration
  return { studyType: calibrate(maps.studyType, raw.studyType), relevance: calibrate(maps.relevance, raw.relevance), topic: calibrate(maps.topic, raw.topic) }
}
