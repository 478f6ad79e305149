/**
 * The gate in front of every /api/v1 route (unknown paths included): API key, rate limit, and the
 * headers docs/contract-decisions.md asks for. It runs in onRequest, before routing, so a 404 for an unknown
 * path still carries the rate-limit headers of the key that asked. Preflight requests and the
 * OpenAPI document pass without a key.
 */
import { Elysia } from 'elysia'
import type { DatabaseBreaker } from '../../http/breaker'
import { ApiError } from '../../http/errors'
import { noteKeyId } from '../../http/request-notes'
import type { KeyUsageRecorder } from '../../accounts/key-last-used'
import type { KeyAuthenticator } from './auth'
import { ALLOWANCES, bucketFor } from './rate-limit/allowances'
import { internalRequests } from './internal-requests'
import { rateLimitHeaders, type RateLimitStore } from '../../rate-limit/store'

const PREFIX = '/api/v1/'
const PUBLIC_PATHS = new Set(['/api/v1/openapi.json', '/api/v1/docs'])

export type GateOptions = {
  keys: KeyAuthenticator
  limits: RateLimitStore
  now: () => Date
  usage: KeyUsageRecorder // api_keys.last_used_at, written in batches
  breaker?: DatabaseBreaker // a 503 at once, before the key check, while the database was just found down
}

function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const end = url.indexOf('?', start)
  return end === -1 ? url.slice(start) : url.slice(start, end)
}

export const v1Gate = ({ keys, limits, now, usage, breaker }: GateOptions) =>
  new Elysia({ name: 'v1-gate' }).onRequest(async ({ request, set }) => {
    const path = pathOf(request.url)
    if (!(path.startsWith(PREFIX) || path === '/api/v1') || request.method === 'OPTIONS') return
    if (internalRequests.has(request)) return // made by an MCP tool for a request this gate already let in
    set.headers['vary'] = 'Authorization'
    if (PUBLIC_PATHS.has(path)) {
      set.headers['cache-control'] = 'private, max-age=60'
      return
    }
    breaker?.admit()
    const holder = await keys.authenticate(request.headers.get('authorization'))
    const at = now()
    usage.touch(holder.keyId, at)
    noteKeyId(request, holder.keyId)
    const decision = await limits.take(bucketFor(holder), ALLOWANCES[holder.tier], at)
    const headers = rateLimitHeaders(decision)
    if (!decision.allowed) {
      throw new ApiError('rate_limited', `rate limit reached; retry after ${decision.retryAfter} seconds`, headers)
    }
    Object.assign(set.headers, headers)
    set.headers['cache-control'] = 'private, max-age=60'
  })
