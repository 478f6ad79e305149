/**
 * Schemas every admin area shares: the error envelope with the admin codes (decisions.md adds
 * unauthenticated, forbidden, invalid_credentials and conflict to the Data API's), and the error
 * responses an operator endpoint can give behind the operator guard.
 */
import { t } from 'elysia'
import { ERROR_STATUS, type ErrorCode } from '../../http/errors'
import { Enum, Integer } from '../v1/model'

const ADMIN_ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]

export const AdminErrorEnvelope = t.Object({
  error: t.Object({ status: Integer({ minimum: 400, maximum: 599 }), code: Enum(ADMIN_ERROR_CODES), message: t.String() }),
}, { description: 'Error' })

/** 401/403/429 come from the operator guard and the limits in front of these routes. */
export const adminErrorResponses = {
  400: AdminErrorEnvelope, 401: AdminErrorEnvelope, 403: AdminErrorEnvelope, 404: AdminErrorEnvelope,
  429: AdminErrorEnvelope, 500: AdminErrorEnvelope, 503: AdminErrorEnvelope,
}

/** Freshness of an answer computed from a snapshot (contradictions, gaps). */
export const SnapshotMeta = t.Object({
  computed_at: t.String({ format: 'date-time', description: 'When the contradictions and gaps were last computed (the intelligence job).' }),
  reference_date: t.String({ format: 'date', description: 'The newest indexed_date in the corpus at that time.' }),
  stale: t.Boolean({ description: 'True when claims or papers arrived since; POST /api/intelligence/refresh recomputes now, the job every 10 minutes.' }),
  scoring: t.String({ description: 'How scores are computed.' }),
})
