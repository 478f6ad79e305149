/** API keys: created for an account with a tier, listed, revoked. Only the secret's hash is kept. */
import { and, asc, eq, isNull } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { accounts, apiKeys } from '../../db/schema'
import { invalidParameter, notFound } from '../../http/errors'
import { requireAccount } from '../accounts/service'
import { generateApiKey, hashSecret, isKeyId } from './key-format'

export const TIERS = ['member', 'pro'] as const
export type Tier = (typeof TIERS)[number]

export type KeyInfo = {
  id: string
  username: string
  tier: Tier
  label: string | null
  createdAt: Date
  revokedAt: Date | null
  lastUsedAt: Date | null
}

const keyColumns = {
  id: apiKeys.id,
  username: accounts.username,
  tier: apiKeys.tier,
  label: apiKeys.label,
  createdAt: apiKeys.createdAt,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
}

/** Creates a key and returns it with the plain key, which is never stored and never shown again. */
export async function createKey(db: Db, username: string, tier: Tier, label: string | null = null) {
  if (!TIERS.includes(tier)) throw invalidParameter('tier must be member or pro')
  const account = await requireAccount(db, username)
  // A clash of 8 random base62 characters is unlikely, but a retry is cheap and makes it harmless.
  for (let attempt = 0; attempt < 5; attempt++) {
    const { id, secret, key } = generateApiKey()
    const [row] = await db.insert(apiKeys)
      .values({ id, accountId: account.id, tier, secretHash: hashSecret(secret), label })
      .onConflictDoNothing()
      .returning({ id: apiKeys.id, createdAt: apiKeys.createdAt })
    if (row) {
      const info: KeyInfo = { id, username: account.username, tier, label, createdAt: row.createdAt, revokedAt: null, lastUsedAt: null }
      return { key, info }
    }
  }
  throw new Error('could not find a free key id after 5 attempts')
}

export async function listKeys(db: Db, username?: string): Promise<KeyInfo[]> {
  const account = username === undefined ? null : await requireAccount(db, username)
  const rows = await db.select(keyColumns).from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(account ? eq(apiKeys.accountId, account.id) : undefined)
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id))
  return rows as KeyInfo[]
}

/** Revokes a key; revoking one already revoked keeps its first revocation time. */
export async function revokeKey(db: Db, id: string): Promise<{ info: KeyInfo; alreadyRevoked: boolean }> {
  if (!isKeyId(id)) throw invalidParameter('a key id is the 8 letters and digits after "grk_"')
  const [revoked] = await db.update(apiKeys).set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id })
  const info = await findKey(db, id)
  if (!info) throw notFound(`no key with id "${id}"`)
  return { info, alreadyRevoked: !revoked }
}

async function findKey(db: Db, id: string): Promise<KeyInfo | null> {
  const [row] = await db.select(keyColumns).from(apiKeys).innerJoin(accounts, eq(accounts.id, apiKeys.accountId)).where(eq(apiKeys.id, id))
  return (row as KeyInfo) ?? null
}
