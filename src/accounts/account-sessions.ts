/**
 * Ending an account's sessions at once, whatever else happens to it: a password change keeps only the session that made
 * it, an operator's reset, a disabled account or "end all sessions" keep none. The rows go, so their cookies find
 * nothing (src/accounts/sessions.ts reads them).
 */
import { and, eq, ne } from 'drizzle-orm'
import type { Db } from '../db/client'
import { sessions } from '../db/schema'

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** Deletes the account's sessions but the one whose token hash is `keepTokenHash`; returns how many ended. */
export async function endSessionsOf(db: Db | Tx, accountId: number, keepTokenHash: string | null = null) {
  const kept = keepTokenHash === null ? undefined : ne(sessions.tokenHash, keepTokenHash)
  const gone = await db
    .delete(sessions)
    .where(and(eq(sessions.accountId, accountId), kept))
    .returning({ accountId: sessions.accountId })
  return gone.length
}
