/**
 * Disabling an account (operators): while `accounts.disabled_at` is set the account cannot log in, its sessions are
 * refused (src/accounts/sessions.ts) and its API keys are refused by the Data API, whose key cache every
 * instance empties on the change notification the accounts table sends (drizzle/0005). Its sessions are deleted at
 * once too. Enabling it again lets it log in and its unrevoked keys work again; ended sessions stay ended.
 */
import { eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { accounts } from '../db/schema'
import { endSessionsOf } from './account-sessions'

export type AccessChange = { disabledAt: Date | null; endedSessions: number }

/**
 * Disables (keeping the first disabling time when it already is) or enables account `accountId`; null when there is
 * no such account.
 */
export async function setAccountDisabled(
  db: Db,
  accountId: number,
  disabled: boolean,
  now: Date,
): Promise<AccessChange | null> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ disabledAt: accounts.disabledAt })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .for('update')
    if (!current) return null
    const disabledAt = disabled ? (current.disabledAt ?? now) : null
    if (disabledAt?.getTime() !== current.disabledAt?.getTime()) {
      await tx.update(accounts).set({ disabledAt }).where(eq(accounts.id, accountId))
    }
    return { disabledAt, endedSessions: disabled ? await endSessionsOf(tx, accountId) : 0 }
  })
}
