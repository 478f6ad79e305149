/**
 * One more request on the allowance of the key a request carries, for the requests that cost more
 * than the one the gate counted: each further 100 ids of a batch lookup, each further message of
 * an MCP batch. A refused take counts in no window (src/rate-limit/store.ts).
 */
import type { RateDecision, RateLimitStore } from '../../../rate-limit/store'
import type { KeyAuthenticator } from '../auth'
import { ALLOWANCES, bucketFor } from './allowances'

export type TakeOne = (request: Request) => Promise<RateDecision>

export function takeOne({ keys, limits, now }: { keys: KeyAuthenticator; limits: RateLimitStore; now: () => Date }): TakeOne {
  return async (request) => {
    // The gate checked this key moments ago: this is a cache hit, not a database read.
    const holder = await keys.authenticate(request.headers.get('authorization'))
    return limits.take(bucketFor(holder), ALLOWANCES[holder.tier], now())
  }
}
