/**
 * POST /api/auth/password for the signed-in account: the current password is checked like a login (the same failure
 * budget per username, login-budget.ts, so a session left open does not let anyone guess it), then the change is made
 * by src/accounts/password-change.ts, which ends every other session of the account.
 */
import type { Db } from '../../../db/client'
import { ApiError, invalidParameter } from '../../../http/errors'
import { changeOwnPassword } from '../../../accounts/password-change'
import { claimLoginAttempt, clearLoginFailures } from '../../../accounts/login-budget'
import { hashToken, type Session } from '../../../accounts/sessions'

export const WRONG_CURRENT_PASSWORD = "current_password is not the account's password"

export async function changePassword(
  db: Db,
  session: Session,
  token: string,
  body: { current_password: string; new_password: string },
  now: Date,
) {
  if (body.new_password === body.current_password) {
    throw invalidParameter('new_password must differ from current_password')
  }
  const { id, username } = session.account
  const locked = await claimLoginAttempt(db, username, now)
  if (locked) {
    const retryAfter = String(locked.retryAfter)
    const message = `too many wrong passwords for this account; retry after ${retryAfter} seconds`
    throw new ApiError('rate_limited', message, { 'retry-after': retryAfter })
  }
  const outcome = await changeOwnPassword(db, id, body.current_password, body.new_password, hashToken(token))
  if (!outcome.changed) {
    if (outcome.reason === 'no-account') {
      throw new ApiError('unauthenticated', 'the session has ended (logged out or expired); sign in again')
    }
    throw new ApiError('invalid_credentials', WRONG_CURRENT_PASSWORD)
  }
  await clearLoginFailures(db, username)
  return { password_changed: true as const, sessions_ended: outcome.endedSessions }
}
