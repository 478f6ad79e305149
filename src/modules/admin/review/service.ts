/** The admin view of the review queue and of judgement corrections (src/pipeline/judgements holds them). */
import type { Db } from '../../../db/client'
import { invalidParameter, notFound, quoted } from '../../../http/errors'
import { pager } from '../../../http/pager'
import type { ParsedParams } from '../../../http/params'
import type { ParsedBody } from '../../../http/json-body'
import { correctJudgement } from '../../../pipeline/judgements/correct'
import { judgementHistory } from '../../../pipeline/judgements/history'
import { judgementOf } from '../../../pipeline/judgements/judgement'
import { reviewQueue, type ReviewPosition, type ReviewRow } from '../../../pipeline/judgements/queue'
import type { correctionBody, reviewParams } from './model'

export async function reviewPage(db: Db, secret: string, threshold: number, p: ParsedParams<typeof reviewParams>) {
  // The threshold is bound into the cursor with the filters: a page after a restart with another
  // threshold would start from a position of a different queue.
  const filters = { reason: p.reason, topic: p.topic, study_type: p.study_type, threshold }
  const paging = pager(secret, 'admin-review', filters, p)
  const after = paging.after ? positionOf(paging.after) : null
  const rows = await reviewQueue(
    db,
    threshold,
    { reasons: p.reason, topics: p.topic, studyTypes: p.study_type },
    after,
    paging.limit + 1,
  )
  const { items, pagination } = paging.page(rows, (r) =>
    r.reason === 'audit' ? ['audit', r.id] : ['low_confidence', r.confidence, r.id],
  )
  return { data: items.map(serializeItem), pagination }
}

/** A cursor's position (signed by us, so well formed unless made by an older release). */
function positionOf(k: (string | number)[]): ReviewPosition {
  if (k[0] === 'audit' && k.length === 2 && typeof k[1] === 'string') return { reason: 'audit', id: k[1] }
  if (k[0] === 'low_confidence' && k.length === 3 && typeof k[1] === 'number' && typeof k[2] === 'string') {
    return { reason: 'low_confidence', confidence: k[1], id: k[2] }
  }
  throw invalidParameter('cursor is not a cursor this API issued')
}

function serializeItem(r: ReviewRow) {
  return {
    paper: {
      id: r.id,
      title: r.title,
      journal: r.journal,
      published_date: r.publishedDate,
      url: r.url,
      publication_types: r.publicationTypes,
      abstract: r.abstract,
    },
    judgement: judgementOf(r)!, // the queue holds judged papers only
    reason: r.reason,
    confidence: r.confidence,
  }
}

const JUDGEMENT_FIELDS = ['relevance', 'study_type', 'topic', 'newsworthiness'] as const

export async function correctPaperJudgement(
  db: Db,
  paperId: string,
  body: ParsedBody<typeof correctionBody>,
  accountId: number,
  now: Date,
) {
  if (JUDGEMENT_FIELDS.every((f) => body[f] === undefined)) {
    throw invalidParameter(`give at least one of ${JUDGEMENT_FIELDS.join(', ')}`)
  }
  const result = await correctJudgement(
    db,
    paperId,
    {
      relevance: body.relevance,
      studyType: body.study_type,
      topic: body.topic,
      newsworthiness: body.newsworthiness,
      note: body.note,
    },
    accountId,
    now,
  )
  if (result.kind === 'not_found') throw notFound(`no paper with id ${quoted(paperId)}`)
  if (result.kind === 'incomplete') {
    throw invalidParameter(
      `the paper has no judgement yet, so ${result.missing.join(', ')} must be given too (a first judgement needs ` +
        `relevance, study_type and topic)`,
    )
  }
  return { data: { paper_id: paperId, judgement: result.judgement, previous: result.previous } }
}

export async function paperJudgementHistory(db: Db, paperId: string) {
  const versions = await judgementHistory(db, paperId)
  if (!versions) throw notFound(`no paper with id ${quoted(paperId)}`)
  return { data: versions }
}
