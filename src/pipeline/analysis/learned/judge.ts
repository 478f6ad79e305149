/**
 * The learned judge: relevance, study type and topic from softmax models trained on hand-judged records
 * (scripts/train-analyzer.ts writes ./model.json), over the paper's words and the written rules'
 * conclusions. Relevance is probability-weighted as the contract says (the sum of level x probability);
 * each confidence is the calibrated probability of the answer given (for relevance, of its band).
 */
import type { PaperInput } from '../types'
import type { Reading } from '../builtin/reading'
import { STUDY_TYPES, TOPICS, type StudyType, type TopicSlug } from '../../../taxonomy'
import { textFeatures } from './features'
import { levelOffset, ruleFeatures, ruleOffset, type RuleOutcome } from './rules-as-features'
import { argmax, probabilities, type SoftmaxModel } from './softmax'
import type { GroupedCalibration } from './calibration'

export type LearnedModels = {
  /**
   * What the models read: words only; words and the rules' conclusions as features; or those, with each
   * model starting from the rules' own answer (its log-probabilities added to the scores), so it learns
   * corrections to the rules rather than everything anew.
   */
  features: 'text' | 'text+rules' | 'stacked'
  studyType: SoftmaxModel
  relevance: SoftmaxModel // classes '0'..'3'
  topic: SoftmaxModel
}

/**
 * What src/pipeline/analysis/learned/model.json holds: the study-type model (combined or stacked), consulted when the rules' own
 * confidence is below `trustRulesFrom`, and the calibration maps of the three confidences; how they were trained.
 */
export type ShippedModel = {
  trainedOn: string
  options: Record<string, number>
  features: 'stacked' | 'combined'
  trustRulesFrom: number
  studyType: SoftmaxModel
  calibration: { studyType: GroupedCalibration; relevance: GroupedCalibration; topic: GroupedCalibration }
}

export type LearnedJudgement = {
  relevance: number
  relevanceConfidence: number
  relevanceLevels: number[]
  studyType: StudyType
  studyTypeConfidence: number
  topic: TopicSlug
  topicConfidence: number
}

const round = (x: number) => Math.round(x * 1000) / 1000

export function featuresFor(
  paper: PaperInput,
  reading: Reading,
  rules: RuleOutcome,
  kind: LearnedModels['features'],
): string[] {
  const features = textFeatures(paper, reading)
  if (kind !== 'text') for (const f of ruleFeatures(rules)) features.add(f)
  return [...features]
}

export type Offsets = { studyType?: number[]; relevance?: number[]; topic?: number[] }

/** The rules' answers as the stacked models' starting points. */
export function offsetsFor(rules: RuleOutcome): Offsets {
  return {
    studyType: ruleOffset(STUDY_TYPES, rules.studyType, rules.studyTypeConfidence),
    relevance: levelOffset(rules.relevanceLevels),
    topic: ruleOffset(TOPICS, rules.topic, rules.topicConfidence),
  }
}

function best(model: SoftmaxModel, features: string[], offset?: number[]): { label: string; p: number } {
  const p = probabilities(model, features, offset)
  const k = argmax(p)
  return { label: model.classes[k], p: p[k] }
}

/** The band a relevance falls in, as the default lists and the evaluation cut it: <1, 1-2, 2+. */
const bandOf = (relevance: number) => (relevance < 1 ? 0 : relevance < 2 ? 1 : 2)

export function relevanceFrom(levels: number[]): { relevance: number; confidence: number } {
  const relevance = levels[1] + 2 * levels[2] + 3 * levels[3]
  const band = bandOf(relevance)
  const confidence = band === 0 ? levels[0] : band === 1 ? levels[1] : levels[2] + levels[3]
  return { relevance: round(relevance), confidence: round(confidence) }
}

export function learnedJudgement(models: LearnedModels, features: string[], offsets: Offsets = {}): LearnedJudgement {
  const levels = probabilities(models.relevance, features, offsets.relevance)
  const { relevance, confidence } = relevanceFrom(levels)
  const study = best(models.studyType, features, offsets.studyType)
  const topic = best(models.topic, features, offsets.topic)
  return {
    relevance,
    relevanceConfidence: confidence,
    relevanceLevels: levels,
    studyType: study.label as StudyType,
    studyTypeConfidence: round(study.p),
    topic: topic.label as TopicSlug,
    topicConfidence: round(topic.p),
  }
}
