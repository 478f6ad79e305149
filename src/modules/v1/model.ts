/** TypeBox schemas of the resources shared by several /api/v1 endpoints. */
import type { TNull, TUnion } from '@sinclair/typebox'
import { t } from 'elysia'
import type { ErrorCode } from '../../http/errors'
import { Enum, Integer, Nullable } from '../../http/schemas'
import { STUDY_TYPES, TOPICS } from '../../taxonomy'

// The shared building blocks live in src/http/schemas.ts (the admin interface uses them too).
export { documented, Enum, Integer, Pagination } from '../../http/schemas'

const DateString = t.String({ format: 'date' })
const DateTime = t.String({ format: 'date-time' })
const Url = t.String({ format: 'uri' })

/**
 * `values` or null, as one enum: Elysia's plugin writes a Union with Null as a type list but leaves null out of the
 * enum.
 */
const NullableEnum = <const V extends readonly [string, ...string[]]>(values: V) =>
  // Typed as the Union it documents: TypeBox's types have no enum that holds null.
  t.UnionEnum(
    [...values, null] as unknown as V,
    { default: undefined, type: ['string', 'null'] } as object,
  ) as unknown as TUnion<[ReturnType<typeof Enum<V>>, TNull]>

/** The codes /api/v1 answers with. */
const DATA_API_ERROR_CODES = [
  'missing_key',
  'invalid_key',
  'revoked_key',
  'plan_required',
  'rate_limited',
  'invalid_parameter',
  'not_found',
  'unavailable',
  'internal_error',
] as const satisfies readonly ErrorCode[]

export const ErrorEnvelope = t.Object(
  {
    error: t.Object({
      status: Integer({ minimum: 400, maximum: 599 }),
      code: Enum(DATA_API_ERROR_CODES),
      message: t.String(),
    }),
  },
  { description: 'Error' },
)

export const Judgement = t.Object({
  relevance: t.Number({ minimum: 0, maximum: 3 }),
  relevance_confidence: Nullable(t.Number({ minimum: 0, maximum: 1 })),
  newsworthiness: t.Number({ minimum: 0, maximum: 3 }),
  study_type: NullableEnum(STUDY_TYPES),
  study_type_label: Nullable(t.String()),
  study_type_confidence: Nullable(t.Number({ minimum: 0, maximum: 1 })),
  topic: NullableEnum(TOPICS),
  topic_confidence: Nullable(t.Number({ minimum: 0, maximum: 1 })),
  promotional: Nullable(t.Number({ minimum: 0, maximum: 1 })),
  model: t.String(),
  prompt_version: t.String(),
  judged_at: DateTime,
})

export const StorySummary = t.Object({ headline: t.String(), dek: t.String(), url: Url })

export const Story = t.Object({
  headline: t.String(),
  dek: t.String(),
  body: t.String(),
  why_it_matters: t.String(),
  caveats: t.String(),
  support: Nullable(t.Number({ minimum: 0, maximum: 3 })),
  model: t.String(),
  published_at: DateTime,
  url: Url,
})

export const paperRefFields = {
  id: t.String({ pattern: '^(MED|PPR)-[0-9]+$' }),
  source: t.Union([t.Literal('MED'), t.Literal('PPR')]),
  doi: Nullable(t.String()),
  title: t.String(),
  authors: t.String(),
  journal: t.String(),
  published_date: Nullable(DateString),
  indexed_date: DateString,
  preprint: t.Boolean(),
  publication_types: t.Array(t.String()),
  url: Url,
  site_url: Url,
  abstract: Nullable(t.String()),
  abstract_license: Nullable(t.String()),
  judgement: Nullable(Judgement),
}

export const PaperRef = t.Object(paperRefFields)
export const Paper = t.Object({ ...paperRefFields, story: Nullable(StorySummary) })

export const EntityRef = t.Object({ type: t.String(), key: t.String(), name: t.String() })

export const PaperEntity = t.Object({
  type: t.String(),
  key: t.String(),
  name: t.String(),
  ids: t.Record(t.String(), t.String()),
  role: t.String(),
  detail: Nullable(t.Record(t.String(), t.Unknown())),
})

const ClaimSide = t.Object({ text: t.String(), entity: Nullable(EntityRef) })

export const claimFields = {
  id: Integer(),
  paper_id: t.String(),
  subject: ClaimSide,
  relation: t.String(),
  object: ClaimSide,
  organism: Nullable(t.String()),
  context: Nullable(t.Record(t.String(), t.Unknown())),
  direction: NullableEnum(['increase', 'decrease', 'no_change', 'mixed'] as const),
  magnitude: Nullable(t.String()),
  evidence: Nullable(t.String()),
  confidence: Nullable(t.Number({ minimum: 0, maximum: 1 })),
  created_at: DateTime,
}
export const Claim = t.Object(claimFields)

export const PaperDetail = t.Object({
  ...paperRefFields,
  story: Nullable(Story),
  upvotes: Integer({ minimum: 0 }),
  entities: t.Array(PaperEntity),
  claims: t.Array(Claim),
})

/** The error responses every authenticated endpoint can give. */
export const errorResponses = {
  400: ErrorEnvelope,
  401: ErrorEnvelope,
  403: ErrorEnvelope,
  404: ErrorEnvelope,
  429: ErrorEnvelope,
  500: ErrorEnvelope,
  503: ErrorEnvelope,
}
