/**
 * Admin sessions. The cookie holds an opaque random token (32 bytes, base64url); the database keeps
 * only its SHA-256, so a copy of the table logs no one in. A session ends at logout, after
 * SESSION_IDLE_MINUTES without a request, and SESSION_MAX_HOURS after login whatever happens; an
 * ended session's row is deleted, so its cookie, replayed, finds nothing. It also ends, at its next
 * request at the latest, when an operator disables the account, and, for a member, when the
 * membership it last saw active has lapsed (src/accounts/ ends them at once when the change is
 * made there; this check catches a change made any other way).
 */
import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm'
import type { SessionLifetimes } from '../config'
import type { Db } from '../db/client'
import { accounts, sessions } from '../db/schema'
import type { Membership, Role } from './accounts'

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/ // 32 bytes in base64url, unpadded

export type SessionPolicy = { idleMs: number; maxMs: number }

export const sessionPolicy = ({ idleMinutes, maxHours }: SessionLifetimes): SessionPolicy => ({
  idleMs: idleMinutes * 60_000,
  maxMs: maxHours * 3_600_000,
})

export type SessionAccount = { id: number; username: string; role: Role; membership: Membership }

export type Session = {
  account: SessionAccount
  createdAt: Date
  expiresAt: Date // the absolute end
  idleExpiresAt: Date // the end if no request comes before it
}

/** What the database keeps of a token (src/accounts/ names the session to keep by it). */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/** Whether a cookie value could be a token we issued; anything else is ignored without a look-up. */
export const isSessionToken = (value: string) => TOKEN_SHAPE.test(value)

/** Starts a session for an account; returns the token for the cookie (never stored) and the session. */
export async function startSession(
  db: Db,
  account: SessionAccount,
  now: Date,
  policy: SessionPolicy,
): Promise<{ token: string; session: Session }> {
  const token = randomBytes(32).toString('base64url')
  const expiresAt = new Date(now.getTime() + policy.maxMs)
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    accountId: account.id,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    membership: account.membership,
  })
  return { token, session: { account, createdAt: now, expiresAt, idleExpiresAt: idleEnd(now, expiresAt, policy) } }
}

const idleEnd = (seen: Date, expiresAt: Date, policy: SessionPolicy) =>
  new Date(Math.min(seen.getTime() + policy.idleMs, expiresAt.getTime()))

/**
 * The live session a token names, marked as seen now; null when there is none. One statement checks
 * both expiries and moves the idle one; a session found ended is deleted on the spot. The absolute
 * end is checked against the login time too, so a shorter SESSION_MAX_HOURS applies to sessions
 * already open.
 */
export async function resumeSession(db: Db, token: string, now: Date, policy: SessionPolicy): Promise<Session | null> {
  if (!isSessionToken(token)) return null
  const tokenHash = hashToken(token)
  const [row] = await db
    .update(sessions)
    .set({
      lastSeenAt: sql`greatest(${sessions.lastSeenAt}, ${now.toISOString()}::timestamptz)`,
      membership: sql`${accounts.membership}`, // what the next request compares with
    })
    .from(accounts)
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        eq(accounts.id, sessions.accountId),
        gt(sessions.expiresAt, now),
        gt(sessions.createdAt, new Date(now.getTime() - policy.maxMs)),
        gt(sessions.lastSeenAt, new Date(now.getTime() - policy.idleMs)),
        isNull(accounts.disabledAt),
        // A member's session that saw the membership active ends once it has lapsed; one begun lapsed goes on.
        sql`not (${accounts.role} <> 'admin' and ${accounts.membership} <> 'active'
        and ${sessions.membership} = 'active')`,
      ),
    )
    .returning({
      id: accounts.id,
      username: accounts.username,
      role: accounts.role,
      membership: accounts.membership,
      createdAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
    })
  if (!row) {
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash))
    return null
  }
  const { createdAt, expiresAt, ...account } = row
  const end = new Date(Math.min(expiresAt.getTime(), createdAt.getTime() + policy.maxMs))
  return { account: account as SessionAccount, createdAt, expiresAt: end, idleExpiresAt: idleEnd(now, end, policy) }
}

/** Ends the session a token names (logout, or a login that replaces it); true when there was one. */
export async function endSession(db: Db, token: string): Promise<boolean> {
  if (!isSessionToken(token)) return false
  const gone = await db
    .delete(sessions)
    .where(eq(sessions.tokenHash, hashToken(token)))
    .returning({ accountId: sessions.accountId })
  return gone.length > 0
}

/** Deletes every session that has ended by either expiry; returns how many (the hourly job). */
export async function purgeEndedSessions(db: Db, now: Date, policy: SessionPolicy): Promise<number> {
  const gone = await db
    .delete(sessions)
    .where(
      or(
        lt(sessions.expiresAt, now),
        lt(sessions.createdAt, new Date(now.getTime() - policy.maxMs)),
        lt(sessions.lastSeenAt, new Date(now.getTime() - policy.idleMs)),
      ),
    )
    .returning({ accountId: sessions.accountId })
  return gone.length
}
