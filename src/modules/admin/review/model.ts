/** Parameters, bodies and answers of the review queue and judgement corrections (operators). */
import { t } from 'elysia'
import { enumField, numberField, optional, stringField } from '../../../http/json-body'
import { listParam, pagingParams, type Param } from '../../../http/params'
import { REVIEW_REASONS, type ReviewReason } from '../../../pipeline/judgements/queue'
import { STUDY_TYPES, TOPICS } from '../../../taxonomy'
import { DateTime, Enum, Integer, Nullable, Pagination } from '../schemas'

export const MAX_NOTE_LENGTH = 2000

export const reviewParams = {
  reason: listParam('Only items queued for these reasons: low_confidence, audit.', REVIEW_REASONS) as Param<
    ReviewReason[]
  >,
  topic: listParam('Only papers judged on these topics.', TOPICS),
  study_type: listParam('Only papers judged of these study types.', STUDY_TYPES),
  ...pagingParams,
}

export const correctionBody = {
  relevance: optional(numberField('Relevance to ageing biology, 0 to 3; stored rounded to hundredths.', 0, 3)),
  study_type: optional(enumField('The study type.', STUDY_TYPES)),
  topic: optional(enumField('The topic.', TOPICS)),
  newsworthiness: optional(numberField('Newsworthiness, 0 to 3.', 0, 3)),
  note: optional(
    stringField(
      `Why, for the history and the exported labels; at most ${MAX_NOTE_LENGTH.toLocaleString('en')} characters.`,
      { min: 0, max: MAX_NOTE_LENGTH },
    ),
  ),
}

const Confidence = (what: string) =>
  Nullable(t.Number({ minimum: 0, maximum: 1, description: `Confidence in the ${what}, 0 to 1; 1 for an editor's.` }))

export const Judgement = t.Object(
  {
    relevance: t.Number({ minimum: 0, maximum: 3 }),
    relevance_confidence: Confidence('relevance'),
    study_type: Nullable(Enum(STUDY_TYPES)),
    study_type_confidence: Confidence('study type'),
    topic: Nullable(Enum(TOPICS)),
    topic_confidence: Confidence('topic'),
    newsworthiness: Nullable(t.Number({ minimum: 0, maximum: 3 })),
    model: t.String({ description: 'The analyzer that judged the paper, or "editor" for a correction.' }),
    prompt_version: Nullable(t.String({ description: "Null for an editor's correction." })),
    judged_at: DateTime,
  },
  { description: "A paper's judgement." },
)

export const ReviewItem = t.Object({
  paper: t.Object({
    id: t.String(),
    title: t.String(),
    journal: t.String(),
    published_date: Nullable(t.String({ format: 'date' })),
    url: t.String(),
    publication_types: t.Array(t.String()),
    abstract: Nullable(t.String({ description: 'Always given here: editors read it whatever its licence.' })),
  }),
  judgement: Judgement,
  reason: Enum(REVIEW_REASONS),
  confidence: t.Number({
    minimum: 0,
    maximum: 1,
    description: 'The lowest of the three confidences (a missing one counts as 0).',
  }),
})

export const ReviewList = t.Object({ data: t.Array(ReviewItem), pagination: Pagination })

export const CorrectionAnswer = t.Object({
  data: t.Object({
    paper_id: t.String(),
    judgement: Judgement,
    previous: Nullable(
      t.Object(Judgement.properties, { description: 'The judgement replaced; null when the paper had none.' }),
    ),
  }),
})

export const HistoryAnswer = t.Object({
  data: t.Array(
    t.Object({
      version: Integer({ minimum: 1 }),
      judgement: Judgement,
      note: Nullable(t.String()),
      by: Nullable(
        t.Object(
          { id: Integer({ minimum: 1 }), username: t.String() },
          { description: 'The editor; null for the analysis.' },
        ),
      ),
      at: DateTime,
    }),
    { description: 'Newest first.' },
  ),
})
