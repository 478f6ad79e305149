/**
 * What a batch costs against the allowance: each started 100 ids count as one request. The gate
 * has already counted the request itself (the first 100); the rest are taken here at once, after
 * the ids were read and before any query runs, and the X-RateLimit-* headers then show that take.
 * A batch that does not fit in what is left is a 429 with Retry-After that uses no allowance: none
 * of the rest is taken and the gate's unit is given back (docs/contract-decisions.md).
 */
import { ApiError } from '../../../http/errors'
import { rateLimitHeaders } from '../../../rate-limit/store'
import type { TakeRest } from '../rate-limit/take'

export const IDS_PER_REQUEST = 100

export type BatchCharge = (request: Request, set: { headers: Record<string, unknown> }, ids: number) => Promise<void>

export function batchCharge(take: TakeRest): BatchCharge {
  return async (request, set, ids) => {
    const extra = Math.ceil(ids / IDS_PER_REQUEST) - 1
    if (extra <= 0) return
    const decision = await take(request, extra)
    const headers = rateLimitHeaders(decision)
    if (!decision.allowed) {
      throw new ApiError(
        'rate_limited',
        `rate limit reached: a batch of ${ids} ids counts as ${extra + 1} requests (one per ${IDS_PER_REQUEST} ids); ` +
          `retry after ${decision.retryAfter} seconds`,
        headers,
      )
    }
    Object.assign(set.headers, headers)
  }
}
