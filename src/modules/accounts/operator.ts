/** The first operator account, from ADMIN_USERNAME / ADMIN_PASSWORD, made when no operator exists. */
import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import type { Config } from '../../config'
import type { Db } from '../../db/client'
import { accounts } from '../../db/schema'
import { createAccount } from './service'

export type OperatorLogin = { username: string; password: string; generated: boolean }

/** Returns the login it created, or null when an operator already exists. */
export async function ensureOperator(db: Db, config: Pick<Config, 'adminUsername' | 'adminPassword'>): Promise<OperatorLogin | null> {
  const [existing] = await db.select({ n: sql<number>`count(*)::int` }).from(accounts).where(eq(accounts.role, 'admin'))
  if (existing.n > 0) return null
  const generated = config.adminPassword === null
  const password = config.adminPassword ?? randomBytes(12).toString('base64url')
  await createAccount(db, { username: config.adminUsername, password, role: 'admin' })
  return { username: config.adminUsername, password, generated }
}
