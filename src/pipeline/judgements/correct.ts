/**
 * An editor's correction of a paper's judgement (PUT /api/papers/{id}/judgement), in one
 * transaction: the paper row locked, its judgement replaced by the editor's (model "editor", every
 * confidence 1, no prompt version), and the version recorded with who and the note. The row's
 * update is what the Data API sees: the papers triggers put it in the change feed and notify
 * DATA_CHANGED, which empties the response caches (drizzle/0005, 0014); the search outbox gets
 * the paper as for any new judgement; a changed judgement rewrites the paper's story. The analysis skips papers judged
 * by "editor" (src/pipeline/analysis/store.ts).
 */
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { judgementVersions, papers } from '../../db/schema'
import { enqueueSearchSync } from '../../search/outbox'
import { EDITOR_MODEL, judgementOf, paperJudgementColumns, type Judgement } from './judgement'
import { recordCurrentJudgement } from './history'
import { rewriteStory } from '../stories/rewrite'

export type Correction = {
  relevance?: number
  studyType?: string
  topic?: string
  newsworthiness?: number
  note?: string
}

export type CorrectionResult =
  | { kind: 'corrected'; judgement: Judgement; previous: Judgement | null }
  | { kind: 'not_found' }
  | { kind: 'incomplete'; missing: string[] }

/** Relevance as the schema's check wants it (papers_relevance_grain): hundredths. */
export const hundredths = (x: number) => Math.round(x * 100) / 100

export async function correctJudgement(
  db: Db,
  paperId: string,
  c: Correction,
  accountId: number,
  now: Date,
): Promise<CorrectionResult> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select(paperJudgementColumns).from(papers).where(eq(papers.id, paperId)).for('update')
    if (!row) return { kind: 'not_found' as const }
    const previous = judgementOf(row)
    // A paper never judged has nothing to keep: the editor gives the whole judgement.
    if (!previous) {
      const missing = (['relevance', 'study_type', 'topic'] as const).filter(
        (f) => c[f === 'study_type' ? 'studyType' : f] === undefined,
      )
      if (missing.length) return { kind: 'incomplete' as const, missing }
    }
    // The version the correction replaces, when the paper was judged before versions were kept.
    if (previous) await recordCurrentJudgement(tx, paperId)
    const values = {
      relevance: c.relevance !== undefined ? hundredths(c.relevance) : previous!.relevance,
      studyType: c.studyType ?? previous!.study_type,
      topic: c.topic ?? previous!.topic,
      newsworthiness: c.newsworthiness ?? previous?.newsworthiness ?? 0,
      relevanceConfidence: 1,
      studyTypeConfidence: 1,
      topicConfidence: 1,
    }
    await tx
      .update(papers)
      .set({
        ...values,
        judgementModel: EDITOR_MODEL,
        judgementPromptVersion: null,
        judgedAt: now,
        updatedAt: now,
      })
      .where(eq(papers.id, paperId))
    await tx.insert(judgementVersions).values({
      paperId,
      ...values,
      model: EDITOR_MODEL,
      promptVersion: null,
      judgedAt: now,
      note: c.note ?? null,
      accountId,
    })
    await enqueueSearchSync(tx, [paperId])
    // A story must not keep the design or organism words of the judgement it was written from
    // (src/pipeline/stories/rewrite.ts); an editor who accepts the judgement as it stands leaves the story, whoever
    // wrote it, alone.
    const changed =
      !previous ||
      values.studyType !== previous.study_type ||
      values.relevance !== previous.relevance ||
      values.topic !== previous.topic ||
      values.newsworthiness !== previous.newsworthiness
    if (changed) await rewriteStory(tx, paperId, now)
    const judgement = judgementOf({ ...values, model: EDITOR_MODEL, promptVersion: null, judgedAt: now })!
    return { kind: 'corrected' as const, judgement, previous }
  })
}
