/**
 * TypeBox schemas shared by the admin areas: the one error envelope with this interface's codes
 * (every area declares its errors with `errors(...)`), the user, and a snapshot's freshness.
 */
import { t } from 'elysia'
import type { ErrorCode } from '../../http/errors'
import { Enum, Integer } from '../../http/schemas'

export { DateTime, documented, Enum, Integer, Nullable, Pagination } from '../../http/schemas'

/**
 * The codes /api answers with: the Data API's envelope, with four codes more for sessions (docs/contract-decisions.md).
 */
const ADMIN_ERROR_CODES = [
  'invalid_parameter',
  'unauthenticated',
  'invalid_credentials',
  'forbidden',
  'not_found',
  'conflict',
  'rate_limited',
  'unavailable',
  'internal_error',
] as const satisfies readonly ErrorCode[]

export const AdminError = t.Object(
  {
    error: t.Object({
      status: Integer({ minimum: 400, maximum: 599 }),
      code: Enum(ADMIN_ERROR_CODES),
      message: t.String(),
    }),
  },
  { description: 'Error' },
)

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 429 | 500 | 503

/**
 * The error responses of a route: every route can be refused by the gate (401 without a session,
 * 403 for a member on an operator path or a request from another site, 429) or fail (500, 503);
 * `extra` adds the route's own (400, 404, 409).
 */
export function errors(...extra: ErrorStatus[]) {
  const statuses: ErrorStatus[] = [...new Set<ErrorStatus>([...extra, 401, 403, 429, 500, 503])].sort()
  return Object.fromEntries(statuses.map((s) => [s, AdminError])) as Record<ErrorStatus, typeof AdminError>
}

export const User = t.Object({
  id: Integer({ minimum: 1 }),
  username: t.String(),
  role: Enum(['admin', 'member'] as const),
  membership: Enum(['active', 'lapsed'] as const),
})

/** Freshness of an answer computed from a snapshot (contradictions, gaps). */
export const SnapshotMeta = t.Object({
  computed_at: t.String({
    format: 'date-time',
    description: 'When the contradictions and gaps were last computed (the intelligence job).',
  }),
  reference_date: t.String({ format: 'date', description: 'The newest indexed_date in the corpus at that time.' }),
  stale: t.Boolean({
    description:
      'True when claims or papers arrived since; POST /api/intelligence/refresh recomputes now, the job every 10 ' +
      'minutes.',
  }),
  scoring: t.String({ description: 'How scores are computed.' }),
})
