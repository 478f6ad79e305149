/** The admin interface's key operations, over the same key service the command line uses. */
import type { Db } from '../../../db/client'
import { ApiError } from '../../../http/errors'
import type { SessionAccount } from '../../../accounts/sessions'
import { createKeyWithinCap, listKeysOf, revokeKey, type KeyInfo, type Tier } from '../../../accounts/keys'

/** More keys buy no more requests (members share one allowance), so a few are plenty. */
export const MAX_ACTIVE_KEYS = 10

export const serializeKey = (info: KeyInfo) => ({
  id: info.id,
  label: info.label,
  tier: info.tier,
  created_at: info.createdAt.toISOString(),
  last_used_at: info.lastUsedAt?.toISOString() ?? null,
  revoked: info.revokedAt !== null,
  revoked_at: info.revokedAt?.toISOString() ?? null,
})

/** A member-tier key for the caller; members need an active membership, and at most MAX_ACTIVE_KEYS live keys. */
export async function createOwnKey(db: Db, caller: SessionAccount, label: string | null) {
  if (caller.role !== 'admin' && caller.membership !== 'active') {
    throw new ApiError('forbidden', 'creating API keys needs an active membership; renew it first')
  }
  return createWithinCap(db, caller, 'member', label)
}

/** A key for any account (operators); pro unless asked otherwise. */
export async function createAccountKey(db: Db, account: SessionAccount, tier: Tier, label: string | null) {
  return createWithinCap(db, account, tier, label)
}

async function createWithinCap(db: Db, account: SessionAccount, tier: Tier, label: string | null) {
  const created = await createKeyWithinCap(db, account, tier, label, MAX_ACTIVE_KEYS)
  if (!created)
    throw new ApiError('conflict', `the account already has ${MAX_ACTIVE_KEYS} active keys; revoke one first`)
  return { ...serializeKey(created.info), key: created.key }
}

export async function listAccountKeys(db: Db, accountId: number) {
  return (await listKeysOf(db, accountId)).map(serializeKey)
}

/** Revokes a key: any key for an operator, only their own for a member (another's is a 404, as if absent). */
export async function revokeCallersKey(db: Db, caller: SessionAccount, id: string) {
  const { info } = await revokeKey(db, id, caller.role === 'admin' ? undefined : caller.id)
  return serializeKey(info)
}
