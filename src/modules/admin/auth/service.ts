/** Logging in and out: credentials checked, sessions started and ended (sessions.ts). */
import type { Db } from '../../../db/client'
import { ApiError } from '../../../http/errors'
import { authenticate } from '../../accounts/service'
import { endSession, startSession, type Session, type SessionAccount, type SessionPolicy } from './sessions'

/** One message for an unknown name and a wrong password (decisions.md, "Login response"). */
export const WRONG_CREDENTIALS = 'wrong username or password'

/**
 * Checks the credentials and starts a new session. A session token the request already carried is
 * never reused: that session is ended, and the caller sets the new token in its place.
 */
export async function logIn(db: Db, credentials: { username: string; password: string }, carried: string | null, now: Date, policy: SessionPolicy) {
  const account = await authenticate(db, credentials.username, credentials.password)
  if (!account) throw new ApiError('invalid_credentials', WRONG_CREDENTIALS)
  if (carried !== null) await endSession(db, carried)
  return startSession(db, account, now, policy)
}

export const serializeUser = (account: SessionAccount) =>
  ({ id: account.id, username: account.username, role: account.role, membership: account.membership })

export const serializeSession = (session: Session) => ({
  created_at: session.createdAt.toISOString(),
  expires_at: session.expiresAt.toISOString(),
  idle_expires_at: session.idleExpiresAt.toISOString(),
})
