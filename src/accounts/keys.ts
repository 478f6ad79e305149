/** API keys: created for an account with a tier, listed, revoked. Only the secret's hash is kept. */
import { and, asc, count, eq, isNull } from 'drizzle-orm'
import type { Db } from '../db/client'
import { accounts, apiKeys } from '../db/schema'
import { invalidInput, nothingFound } from '../domain-errors'
import { requireAccount, requireAccountById, type Account } from './accounts'
import { generateApiKey, hashSecret, isKeyId } from './key-format'

export const TIERS = ['member', 'pro'] as const
export type Tier = (typeof TIERS)[number]

export type KeyInfo = {
  id: string
  accountId: number
  username: string
  tier: Tier
  label: string | null
  createdAt: Date
  revokedAt: Date | null
  lastUsedAt: Date | null
}

const keyColumns = {
  id: apiKeys.id,
  accountId: apiKeys.accountId,
  username: accounts.username,
  tier: apiKeys.tier,
  label: apiKeys.label,
  createdAt: apiKeys.createdAt,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
}

/**
 * Creates a key for an account only while it has fewer than `max` active keys. The check and the
 * insert run in one transaction holding the account's row lock, so creations for one account queue
 * in the database, in every instance: read apart, 20 at once made 17 keys against a cap of 10.
 * Null when the account is at the cap.
 */
export async function createKeyWithinCap(
  db: Db,
  account: Pick<Account, 'id' | 'username'>,
  tier: Tier,
  label: string | null,
  max: number,
) {
  return db.transaction(async (tx) => {
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, account.id)).for('update')
    if ((await countActiveKeys(tx, account.id)) >= max) return null
    return createKeyFor(tx, account, tier, label)
  })
}

/** Creates a key for an account and returns it with the plain key, which is never stored and never shown again. */
export async function createKeyFor(
  db: Db,
  account: Pick<Account, 'id' | 'username'>,
  tier: Tier,
  label: string | null = null,
) {
  if (!TIERS.includes(tier)) throw invalidInput('tier must be member or pro')
  // A clash of 8 random base62 characters is unlikely, but a retry is cheap and makes it harmless.
  for (let attempt = 0; attempt < 5; attempt++) {
    const { id, secret, key } = generateApiKey()
    const [row] = await db
      .insert(apiKeys)
      .values({ id, accountId: account.id, tier, secretHash: hashSecret(secret), label })
      .onConflictDoNothing()
      .returning({ id: apiKeys.id, createdAt: apiKeys.createdAt })
    if (row) {
      const info: KeyInfo = {
        id,
        accountId: account.id,
        username: account.username,
        tier,
        label,
        createdAt: row.createdAt,
        revokedAt: null,
        lastUsedAt: null,
      }
      return { key, info }
    }
  }
  throw new Error('could not find a free key id after 5 attempts')
}

/** The command line's form: the account by username. */
export async function createKey(db: Db, username: string, tier: Tier, label: string | null = null) {
  if (!TIERS.includes(tier)) throw invalidInput('tier must be member or pro')
  return createKeyFor(db, await requireAccount(db, username), tier, label)
}

export async function listKeys(db: Db, username?: string): Promise<KeyInfo[]> {
  const account = username === undefined ? null : await requireAccount(db, username)
  return account ? listKeysOf(db, account.id) : selectKeys(db)
}

/** One account's keys, oldest first; a 404 when there is no such account. */
export async function listKeysOf(db: Db, accountId: number): Promise<KeyInfo[]> {
  await requireAccountById(db, accountId)
  return selectKeys(db, accountId)
}

async function selectKeys(db: Db, accountId?: number): Promise<KeyInfo[]> {
  const rows = await db
    .select(keyColumns)
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(accountId === undefined ? undefined : eq(apiKeys.accountId, accountId))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id))
  return rows as KeyInfo[]
}

export async function countActiveKeys(db: Db, accountId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
  return row.n
}

/**
 * Revokes a key; revoking one already revoked keeps its first revocation time. With `ownerId`, only
 * a key of that account: another account's key is the same 404 as a key that does not exist.
 */
export async function revokeKey(
  db: Db,
  id: string,
  ownerId?: number,
): Promise<{ info: KeyInfo; alreadyRevoked: boolean }> {
  if (!isKeyId(id)) throw invalidInput('a key id is the 8 letters and digits after "grk_"')
  const info = await findKey(db, id)
  if (!info || (ownerId !== undefined && info.accountId !== ownerId)) throw nothingFound(`no key with id "${id}"`)
  const [revoked] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ revokedAt: apiKeys.revokedAt })
  return revoked
    ? { info: { ...info, revokedAt: revoked.revokedAt }, alreadyRevoked: false }
    : { info, alreadyRevoked: true }
}

async function findKey(db: Db, id: string): Promise<KeyInfo | null> {
  const [row] = await db
    .select(keyColumns)
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(eq(apiKeys.id, id))
  return (row as KeyInfo) ?? null
}
