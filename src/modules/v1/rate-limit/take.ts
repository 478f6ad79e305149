/**
 * Further requests on the allowance of the key a request carries, for the requests that cost more
 * than the one the gate counted: the further hundreds of ids of a batch lookup, each further
 * message of an MCP batch. A take is all its units or none (src/rate-limit/store.ts), and a request
 * refused after the gate counted it gives that unit back: a request refused with 429 uses no
 * allowance (docs/contract-decisions.md).
 */
import { givenBack, type RateDecision, type RateLimitStore } from '../../../rate-limit/store'
import type { KeyAuthenticator } from '../auth'
import { ALLOWANCES, bucketFor } from './allowances'

export type TakeOne = (request: Request) => Promise<RateDecision>
/** Takes `units` more at once; when they do not fit, also gives back the one the gate took for this request. */
export type TakeRest = (request: Request, units: number) => Promise<RateDecision>

type Limits = { keys: KeyAuthenticator; limits: RateLimitStore; now: () => Date }

/** The key's bucket and allowance; the gate checked this key moments ago, so a cache hit, not a database read. */
async function bucketOf(keys: KeyAuthenticator, request: Request) {
  const holder = await keys.authenticate(request.headers.get('authorization'))
  return { bucket: bucketFor(holder), allowance: ALLOWANCES[holder.tier] }
}

export function takeOne({ keys, limits, now }: Limits): TakeOne {
  return async (request) => {
    const { bucket, allowance } = await bucketOf(keys, request)
    return limits.take(bucket, allowance, now())
  }
}

export function takeRest({ keys, limits, now }: Limits): TakeRest {
  return async (request, units) => {
    const { bucket, allowance } = await bucketOf(keys, request)
    const at = now()
    const decision = await limits.take(bucket, allowance, at, units)
    if (decision.allowed) return decision
    await limits.giveBack(bucket, allowance, at, 1)
    return givenBack(decision, 1)
  }
}
