/**
 * A failure budget per username for POST /api/auth/login. The per-address limit
 * (10 a minute) does nothing against guesses spread over many addresses; this counts failures per
 * name, in the database so every instance sees the same count:
 * - the first FREE_FAILURES failures in a row cost nothing; from then on each failure locks the name
 *   for a time that doubles (30 s, 1 min, 2 min ...) up to MAX_LOCK_MS (15 minutes);
 * - while locked, every login for the name is a 429 with Retry-After, before the password is read:
 *   the right password is refused too, so guesses made meanwhile learn nothing;
 * - an attempt counts before its password is checked (a success then clears the count), so a burst
 *   of attempts in flight at once cannot slip past the budget;
 * - names are counted whether or not an account has them, and the answers are the same, so the
 *   budget tells no one which names exist;
 * - a streak ends after STREAK_MS (an hour) without a failure, and a success clears it.
 * An attacker can keep a name locked only by going on failing, and never for more than 15 minutes
 * after their last try; a browser still holding a live session of that account signs in
 * regardless (logIn in service.ts).
 */
import { eq, lt, and, or, isNull } from 'drizzle-orm'
import type { Db } from '../db/client'
import { loginFailures } from '../db/schema'

export const FREE_FAILURES = 5
export const FIRST_LOCK_MS = 30_000
export const MAX_LOCK_MS = 15 * 60_000
export const STREAK_MS = 60 * 60_000

/** How long the name is locked after its `failures`-th failure in a row. */
export const lockAfter = (failures: number) =>
  failures < FREE_FAILURES ? 0 : Math.min(MAX_LOCK_MS, FIRST_LOCK_MS * 2 ** Math.min(failures - FREE_FAILURES, 20))

const key = (username: string) => username.toLowerCase()

/**
 * Counts a login attempt for `username` as a failure, unless the name is locked: then nothing is
 * counted and the answer is the seconds left. Row-locked, so concurrent attempts count one by one.
 */
export async function claimLoginAttempt(db: Db, username: string, now: Date): Promise<{ retryAfter: number } | null> {
  const name = key(username)
  return db.transaction(async (tx) => {
    await tx.insert(loginFailures).values({ username: name, failures: 0, lastFailureAt: now }).onConflictDoNothing()
    const [row] = await tx.select().from(loginFailures).where(eq(loginFailures.username, name)).for('update')
    if (row!.lockedUntil && row!.lockedUntil > now) {
      return { retryAfter: Math.max(1, Math.ceil((row!.lockedUntil.getTime() - now.getTime()) / 1000)) }
    }
    const failures = now.getTime() - row!.lastFailureAt.getTime() > STREAK_MS ? 1 : row!.failures + 1
    const lock = lockAfter(failures)
    await tx
      .update(loginFailures)
      .set({ failures, lastFailureAt: now, lockedUntil: lock ? new Date(now.getTime() + lock) : null })
      .where(eq(loginFailures.username, name))
    return null
  })
}

/** A successful login: the name's streak is over. */
export async function clearLoginFailures(db: Db, username: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.username, key(username)))
}

/** Deletes streaks that have ended (no failure for STREAK_MS, no lock left); the hourly job. */
export async function purgeLoginFailures(db: Db, now: Date): Promise<number> {
  const gone = await db
    .delete(loginFailures)
    .where(
      and(
        lt(loginFailures.lastFailureAt, new Date(now.getTime() - STREAK_MS)),
        or(isNull(loginFailures.lockedUntil), lt(loginFailures.lockedUntil, now)),
      ),
    )
    .returning({ username: loginFailures.username })
  return gone.length
}
