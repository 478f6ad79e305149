/**
 * What a batch costs against the allowance: each started 100 ids count as one request. The gate
 * has already counted the request itself (the first 100); the rest are taken here, after the ids
 * were read and before any query runs, and the X-RateLimit-* headers then show the last take.
 * A batch that does not fit in what is left is a 429 with Retry-After; the parts already taken
 * stay counted, as each would have been had the ids come in separate requests.
 */
import { ApiError } from '../../../http/errors'
import { rateLimitHeaders, type RateLimitStore } from '../../../rate-limit/store'
import type { KeyAuthenticator } from '../auth'
import { ALLOWANCES, bucketFor } from '../rate-limit/allowances'

export const IDS_PER_REQUEST = 100

export type BatchCharge = (request: Request, set: { headers: Record<string, unknown> }, ids: number) => Promise<void>

export function batchCharge({ keys, limits, now }: { keys: KeyAuthenticator; limits: RateLimitStore; now: () => Date }): BatchCharge {
  return async (request, set, ids) => {
    const extra = Math.ceil(ids / IDS_PER_REQUEST) - 1
    if (extra <= 0) return
    // The gate checked this key moments ago: this is a cache hit, not a database read.
    const holder = await keys.authenticate(request.headers.get('authorization'))
    for (let i = 0; i < extra; i++) {
      const decision = await limits.take(bucketFor(holder), ALLOWANCES[holder.tier], now())
      const headers = rateLimitHeaders(decision)
      if (!decision.allowed) {
        throw new ApiError('rate_limited', `rate limit reached: a batch of ${ids} ids counts as ${extra + 1} requests (one per ${IDS_PER_REQUEST} ids); retry after ${decision.retryAfter} seconds`, headers)
      }
      Object.assign(set.headers, headers)
    }
  }
}
