/**
 * A paper's judgement as the admin interface shows it (the review queue, corrections and their
 * history): the values, their confidences and who made it. An editor's correction is `model:
 * "editor"` with every confidence 1 and no prompt version; the analysis never overwrites it.
 */
import { papers } from '../../db/schema'
import type { StudyType, TopicSlug } from '../../taxonomy'

/** papers.judgement_model of a judgement an editor set (PUT /api/papers/{id}/judgement). */
export const EDITOR_MODEL = 'editor'

export type Judgement = {
  relevance: number
  relevance_confidence: number | null
  study_type: StudyType | null
  study_type_confidence: number | null
  topic: TopicSlug | null
  topic_confidence: number | null
  newsworthiness: number | null
  model: string
  prompt_version: string | null
  judged_at: string
}

/** What a judgement is read from: the paper row's columns or a judgement_versions row's. */
export type JudgementRow = {
  relevance: number | null
  relevanceConfidence: number | null
  studyType: string | null
  studyTypeConfidence: number | null
  topic: string | null
  topicConfidence: number | null
  newsworthiness: number | null
  model: string | null
  promptVersion: string | null
  judgedAt: Date | null
}

/** The judgement columns of papers, named as JudgementRow. */
export const paperJudgementColumns = {
  relevance: papers.relevance,
  relevanceConfidence: papers.relevanceConfidence,
  studyType: papers.studyType,
  studyTypeConfidence: papers.studyTypeConfidence,
  topic: papers.topic,
  topicConfidence: papers.topicConfidence,
  newsworthiness: papers.newsworthiness,
  model: papers.judgementModel,
  promptVersion: papers.judgementPromptVersion,
  judgedAt: papers.judgedAt,
}

/** The judgement of a row, or null when the paper is not judged (no relevance or no time). */
export function judgementOf(row: JudgementRow): Judgement | null {
  if (row.relevance === null || row.judgedAt === null) return null
  return {
    relevance: row.relevance,
    relevance_confidence: row.relevanceConfidence,
    study_type: row.studyType as StudyType | null,
    study_type_confidence: row.studyTypeConfidence,
    topic: row.topic as TopicSlug | null,
    topic_confidence: row.topicConfidence,
    newsworthiness: row.newsworthiness,
    model: row.model ?? 'unknown',
    prompt_version: row.promptVersion,
    judged_at: row.judgedAt.toISOString(),
  }
}

/** The lowest of the three confidences, a missing one counting as 0 (as the review queue orders them). */
export const lowestConfidence = (
  j: Pick<Judgement, 'relevance_confidence' | 'study_type_confidence' | 'topic_confidence'>,
) => Math.min(j.relevance_confidence ?? 0, j.study_type_confidence ?? 0, j.topic_confidence ?? 0)
