/**
 * Changing a password. The holder changes their own by giving the current one (the session alone is not enough: a
 * borrowed browser must not take the account over); every other session of the account then ends, the one that made
 * the change stays. An operator's reset (the command line) needs no current password and ends every session.
 * Hashes are made with the same slow hash as at account creation (src/platform/password.ts).
 */
import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { accounts } from '../db/schema'
import { hashPassword, verifyPassword } from '../platform/password'
import { endSessionsOf } from './account-sessions'

export type PasswordChange =
  | { changed: true; endedSessions: number }
  | { changed: false; reason: 'no-account' | 'wrong-current' }

export type ChangeOptions = { verify?: (password: string, hash: string) => Promise<boolean> }

/**
 * Sets `next` as the password of account `accountId` if `current` is its password now, and ends its sessions but the
 * one whose token hash is `keepTokenHash`. `next` must already satisfy password-rules.ts.
 */
export async function changeOwnPassword(
  db: Db,
  accountId: number,
  current: string,
  next: string,
  keepTokenHash: string,
  options: ChangeOptions = {},
): Promise<PasswordChange> {
  const [row] = await db.select({ hash: accounts.passwordHash }).from(accounts).where(eq(accounts.id, accountId))
  if (!row) return { changed: false, reason: 'no-account' }
  if (!(await (options.verify ?? verifyPassword)(current, row.hash))) return { changed: false, reason: 'wrong-current' }
  const hash = await hashPassword(next)
  return db.transaction(async (tx) => {
    // Only over the hash just checked: of two changes racing, the second finds the first's hash, so its `current` is no
    // longer the password, and it changes nothing.
    const [updated] = await tx
      .update(accounts)
      .set({ passwordHash: hash })
      .where(and(eq(accounts.id, accountId), eq(accounts.passwordHash, row.hash)))
      .returning({ id: accounts.id })
    if (!updated) return { changed: false, reason: 'wrong-current' } as const
    return { changed: true, endedSessions: await endSessionsOf(tx, accountId, keepTokenHash) } as const
  })
}

/** An operator's reset: `next` becomes the password and every session of the account ends; null without the account. */
export async function resetPassword(db: Db, accountId: number, next: string) {
  const hash = await hashPassword(next)
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(accounts)
      .set({ passwordHash: hash })
      .where(eq(accounts.id, accountId))
      .returning({ id: accounts.id })
    if (!updated) return null
    return { endedSessions: await endSessionsOf(tx, accountId) }
  })
}
