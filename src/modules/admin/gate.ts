/**
 * The gate in front of every admin path (everything under /api but /api/v1, unknown paths
 * included), in the one place every area is mounted behind. In order:
 *   1. cross-site refusal for POST, PUT, PATCH and DELETE (same-origin.ts): a forged request costs
 *      no database work and no one's allowance (the body's size was checked before, for every path:
 *      src/http/request-limits.ts);
 *   2. the session, from the cookie (never on the login itself: a cookie sent with a login is
 *      ignored and replaced, so no one can plant a session id on a victim);
 *   3. the rate limit: 100 a minute per signed-in account, 10 a minute per client address without
 *      a session (a login always counts against the address, so failed logins make guessing slow);
 *   4. access (access.ts): 401 unauthenticated without a session, 403 forbidden for a member on an
 *      operator path.
 * It runs in onRequest, before routing and body parsing, so no area sees a request it should not.
 */
import { Elysia } from 'elysia'
import type { Config } from '../../config'
import type { Db } from '../../db/client'
import { addressBucket, clientAddress } from '../../platform/client-address'
import { ApiError } from '../../http/errors'
import { peerAddress } from '../../platform/peer-address'
import type { Allowance, RateLimitStore } from '../../rate-limit/store'
import { STATE_CHANGING, accessFor, isAdminPath } from './access'
import { clearedSessionCookie, secureCookies, sessionToken } from './auth/cookie'
import { resumeSession, type Session, type SessionPolicy } from '../../accounts/sessions'
import { crossSiteRefusal } from './same-origin'

export const ADMIN_ALLOWANCES = {
  signedIn: { perMinute: 100 },
  anonymous: { perMinute: 10 },
} as const satisfies Record<string, Allowance>

export type AdminGateOptions = {
  db: Db
  config: Pick<Config, 'publicBaseUrl' | 'trustProxy'>
  limits: RateLimitStore
  now: () => Date
  policy: SessionPolicy
  /** Where the gate leaves each admitted request's session, for AdminContext.caller. */
  sessions: WeakMap<Request, Session>
}

function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const end = url.indexOf('?', start)
  return end === -1 ? url.slice(start) : url.slice(start, end)
}

export const adminGate = ({ db, config, limits, now, policy, sessions }: AdminGateOptions) =>
  new Elysia({ name: 'admin-gate' }).onRequest(async ({ request, set }) => {
    const path = pathOf(request.url)
    if (!isAdminPath(path) || request.method === 'OPTIONS') return
    set.headers['cache-control'] = 'no-store' // answers are about the caller
    const access = accessFor(request.method, path)
    const at = now()
    if (STATE_CHANGING.has(request.method)) {
      const refusal = crossSiteRefusal(request, config.publicBaseUrl)
      if (refusal) throw new ApiError('forbidden', refusal)
    }

    const token = access === 'public' ? null : sessionToken(request)
    const session = token === null ? null : await resumeSession(db, token, at, policy)
    if (token !== null && session === null)
      set.headers['set-cookie'] = clearedSessionCookie(secureCookies(request, config.publicBaseUrl))

    const address = () =>
      addressBucket(clientAddress(peerAddress(request), request.headers.get('x-forwarded-for'), config.trustProxy))
    const bucket = session ? `admin:account:${session.account.id}` : `admin:address:${address()}`
    const decision = await limits.take(bucket, session ? ADMIN_ALLOWANCES.signedIn : ADMIN_ALLOWANCES.anonymous, at)
    if (!decision.allowed) {
      const retryAfter = String(decision.retryAfter ?? 60)
      throw new ApiError('rate_limited', `rate limit reached; retry after ${retryAfter} seconds`, {
        'retry-after': retryAfter,
      })
    }
    if (access !== 'public' && session === null) {
      throw new ApiError(
        'unauthenticated',
        token === null
          ? 'sign in first: POST /api/auth/login, then send the session cookie it sets'
          : 'the session has ended (logged out or expired); sign in again',
      )
    }
    if (access === 'operator' && session!.account.role !== 'admin') {
      throw new ApiError('forbidden', 'this endpoint is for operators')
    }
    if (session) sessions.set(request, session)
  })
