/** Logging in and out: credentials checked, sessions started and ended (sessions.ts). */
import type { Db } from '../../../db/client'
import { ApiError } from '../../../http/errors'
import { authenticate } from '../../../accounts/accounts'
import { claimLoginAttempt, clearLoginFailures } from '../../../accounts/login-budget'
import {
  endSession,
  resumeSession,
  startSession,
  type Session,
  type SessionAccount,
  type SessionPolicy,
} from '../../../accounts/sessions'

/** One message for an unknown name and a wrong password (docs/contract-decisions.md, "Login response"). */
export const WRONG_CREDENTIALS = 'wrong username or password'

/**
 * Checks the credentials and starts a new session. A session token the request already carried is
 * never reused: that session is ended, and the caller sets the new token in its place. The name's
 * failure budget (login-budget.ts) is spent first, except by a caller whose carried session is a
 * live one of the same account: someone already signed in cannot be locked out by strangers.
 */
export async function logIn(
  db: Db,
  credentials: { username: string; password: string },
  carried: string | null,
  now: Date,
  policy: SessionPolicy,
) {
  const current = carried === null ? null : await resumeSession(db, carried, now, policy)
  const signedInAlready =
    current !== null && current.account.username.toLowerCase() === credentials.username.toLowerCase()
  if (!signedInAlready) {
    const locked = await claimLoginAttempt(db, credentials.username, now)
    if (locked) {
      throw new ApiError(
        'rate_limited',
        `too many failed logins for this username; retry after ${locked.retryAfter} seconds`,
        { 'retry-after': String(locked.retryAfter) },
      )
    }
  }
  const account = await authenticate(db, credentials.username, credentials.password)
  if (!account) throw new ApiError('invalid_credentials', WRONG_CREDENTIALS)
  await clearLoginFailures(db, credentials.username)
  if (carried !== null) await endSession(db, carried)
  return startSession(db, account, now, policy)
}

export const serializeUser = (account: SessionAccount) => ({
  id: account.id,
  username: account.username,
  role: account.role,
  membership: account.membership,
})

export const serializeSession = (session: Session) => ({
  created_at: session.createdAt.toISOString(),
  expires_at: session.expiresAt.toISOString(),
  idle_expires_at: session.idleExpiresAt.toISOString(),
})
