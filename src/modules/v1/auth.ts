/**
 * API-key authentication for /api/v1. Keys are checked against an in-process cache so the hot path
 * costs no database round trip. A revocation or membership change empties every instance's cache
 * at once through a change notification (src/db/changes.ts); KEY_CACHE_TTL_MS bounds how long a
 * record can outlive a change should that notification be lost.
 */
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { accounts, apiKeys } from '../../db/schema'
import { ApiError } from '../../http/errors'
import { parseApiKey, secretMatches } from '../keys/key-format'

export const KEY_CACHE_TTL_MS = 30_000

export type KeyHolder = { keyId: string; accountId: number; tier: 'member' | 'pro' }

type KeyRecord = {
  secretHash: string
  accountId: number
  tier: 'member' | 'pro'
  revoked: boolean
  role: string
  membership: string
} | null // null: no such key (cached too, so guessing ids costs the database nothing extra)

export class KeyAuthenticator {
  private cache = new Map<string, { record: KeyRecord; expires: number }>()
  private generation = 0 // a record read while a change landed may predate it: not kept

  constructor(private db: Db, private now: () => number = Date.now) {}

  /** Checks an Authorization header; throws the contract's 401/403 errors. */
  async authenticate(header: string | null): Promise<KeyHolder> {
    const token = header ? /^Bearer(?:\s+(.*))?$/is.exec(header.trim())?.[1]?.trim() : undefined
    if (!token) throw new ApiError('missing_key', 'send your API key as "Authorization: Bearer <key>"')
    const parsed = parseApiKey(token)
    if (!parsed) throw new ApiError('invalid_key', 'the API key is malformed')
    const record = await this.lookup(parsed.id)
    if (!record || !secretMatches(parsed.secret, record.secretHash)) throw new ApiError('invalid_key', 'the API key does not exist')
    if (record.revoked) throw new ApiError('revoked_key', 'the API key has been revoked')
    if (record.tier === 'member' && record.role !== 'admin' && record.membership !== 'active') {
      throw new ApiError('plan_required', 'member keys need an active paid membership; renew it to use this key')
    }
    return { keyId: parsed.id, accountId: record.accountId, tier: record.tier }
  }

  /** Drops every cached record: keys or accounts changed. */
  forget(): void {
    this.generation++
    this.cache.clear()
  }

  private async lookup(keyId: string): Promise<KeyRecord> {
    const cached = this.cache.get(keyId)
    const now = this.now()
    if (cached && cached.expires > now) return cached.record
    const generation = this.generation
    const [row] = await this.db.select({
      secretHash: apiKeys.secretHash,
      accountId: apiKeys.accountId,
      tier: apiKeys.tier,
      revokedAt: apiKeys.revokedAt,
      role: accounts.role,
      membership: accounts.membership,
    }).from(apiKeys).innerJoin(accounts, eq(accounts.id, apiKeys.accountId)).where(eq(apiKeys.id, keyId))
    const record: KeyRecord = row
      ? { secretHash: row.secretHash, accountId: row.accountId, tier: row.tier as 'member' | 'pro', revoked: row.revokedAt !== null, role: row.role, membership: row.membership }
      : null
    if (this.cache.size > 50_000) this.cache.clear() // bounded: a flood of made-up ids cannot grow it forever
    if (generation === this.generation) this.cache.set(keyId, { record, expires: now + KEY_CACHE_TTL_MS })
    return record
  }
}
