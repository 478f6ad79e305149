/** The first operator account, from ADMIN_USERNAME / ADMIN_PASSWORD, made when no operator exists. */
import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import type { Config } from '../config'
import type { Db } from '../db/client'
import { accounts } from '../db/schema'
import { insertAccount } from './accounts'

export type OperatorLogin = { username: string; password: string; generated: boolean }

async function operatorExists(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(accounts).where(eq(accounts.role, 'admin'))
  return row.n > 0
}

/**
 * Returns the login it created, or null when an operator already exists. Safe when several
 * instances start at once on an empty database: the insert does nothing when another instance's
 * operator got there first (only the instance that made it prints its password).
 */
export async function ensureOperator(
  db: Db,
  config: Pick<Config, 'adminUsername' | 'adminPassword'>,
): Promise<OperatorLogin | null> {
  if (await operatorExists(db)) return null
  const generated = config.adminPassword === null
  const password = config.adminPassword ?? randomBytes(12).toString('base64url')
  const created = await insertAccount(db, { username: config.adminUsername, password, role: 'admin' })
  if (created) return { username: created.username, password, generated }
  if (await operatorExists(db)) return null // another instance made it meanwhile
  throw new Error(
    `cannot make the first operator: an account named "${config.adminUsername}" exists and is not an operator; set ` +
      `ADMIN_USERNAME to another name`,
  )
}
