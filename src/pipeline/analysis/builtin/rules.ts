/**
 * The written rules' judgement of a paper: study type, relevance and topic, and the outcome the learned
 * model reads as its starting point and features (src/pipeline/analysis/learned/rules-as-features.ts). The analyzer
 * and the training script (scripts/train-analyzer.ts) both call this, so the model is trained on exactly
 * what it is given in service.
 */
import type { StudyType, TopicSlug } from '../../../taxonomy'
import type { PaperInput } from '../types'
import type { Reading } from './reading'
import { judgeRelevance, type RelevanceEvidence } from './relevance'
import { classifyStudyType } from './study-type'
import { classifyTopic } from './topic'

export type RuleOutcome = {
  studyType: StudyType
  studyTypeConfidence: number
  topic: TopicSlug
  topicConfidence: number
  relevanceRule: string
  relevanceLevels: number[]
  evidence: RelevanceEvidence
}

export function judgeByRules(paper: PaperInput, reading: Reading) {
  const study = classifyStudyType(paper, reading)
  const review = study.studyType === 'review'
  const relevance = judgeRelevance(paper, reading, review)
  const topic = classifyTopic(paper, reading, { cognitiveAgeing: relevance.rule === 'cognitive ageing' })
  const outcome: RuleOutcome = {
    studyType: study.studyType,
    studyTypeConfidence: study.confidence,
    topic: topic.topic,
    topicConfidence: topic.confidence,
    relevanceRule: relevance.rule,
    relevanceLevels: relevance.probabilities,
    evidence: relevance.evidence,
  }
  return { study, relevance, topic, outcome }
}
