/**
 * API-key authentication for /api/v1. Keys are checked against an in-process cache so the hot path
 * costs no database round trip. A revocation, membership change or disabled account empties every instance's cache
 * at once through a change notification (src/db/changes.ts); KEY_CACHE_TTL_MS bounds how long a
 * record can outlive a change should that notification be lost.
 * Ids that are nobody's key are remembered too, in a cache of their own: a flood of made-up ids
 * then costs one look-up per distinct id and cannot push real keys out. Both caches drop their
 * least recently used entries when full. Concurrent look-ups of one id share one read, and the ids
 * asked for at the same moment are read in one query.
 */
import { LRUCache } from 'lru-cache'
import type { Db } from '../../db/client'
import { preparedStatement } from '../../queries/prepared'
import { ApiError } from '../../http/errors'
import { parseApiKey, secretMatches } from '../../accounts/key-format'

export const KEY_CACHE_TTL_MS = 30_000
/** Keys held; about 300 bytes each. */
export const KEY_CACHE_SIZE = 50_000
/** Ids known to be nobody's key; about 150 bytes each. */
export const MISSING_KEY_CACHE_SIZE = 100_000
/** Most ids read in one query. */
const READ_BATCH = 500

/** RFC 6750 challenges on 401s: how to authenticate, and for a key that was given, why it failed. */
const CHALLENGE = 'Bearer realm="geroscope"'
const INVALID_TOKEN = { 'www-authenticate': `${CHALLENGE}, error="invalid_token"` }

/**
 * The keys asked for and their accounts, as SQL text prepared once: with many keys in use, records
 * expire and are read again all the time, and the query builder cost more CPU per read than the read.
 */
type KeyRow = {
  id: string
  secretHash: string
  accountId: number
  tier: string
  revoked: boolean
  role: string
  membership: string
  disabled: boolean
}
const readKeys = preparedStatement<KeyRow>(
  `select k.id, k.secret_hash as "secretHash", k.account_id as "accountId", k.tier, k.revoked_at is not null as revoked,
    a.role, a.membership, a.disabled_at is not null as disabled
  from api_keys k join accounts a on a.id = k.account_id where k.id = any($?::text[])`,
)

export type KeyHolder = { keyId: string; accountId: number; tier: 'member' | 'pro' }

type KeyRecord = {
  secretHash: string
  accountId: number
  tier: 'member' | 'pro'
  revoked: boolean
  role: string
  membership: string
  disabled: boolean // the account is disabled by an operator (src/accounts/account-disable.ts)
}

export class KeyAuthenticator {
  private readonly found: LRUCache<string, KeyRecord>
  private readonly missing: LRUCache<string, true>
  private readonly reading = new Map<string, Promise<KeyRecord | null>>()
  private batch: { ids: string[]; result: Promise<Map<string, KeyRecord>> } | null = null
  private generation = 0 // a record read while a change landed may predate it: not kept
  /** Ids read from the database, and the queries that read them (for tests and diagnostics). */
  readonly reads = { ids: 0, queries: 0 }

  constructor(
    private db: Db,
    now: () => number = Date.now,
  ) {
    const perf = { now }
    this.found = new LRUCache({ max: KEY_CACHE_SIZE, ttl: KEY_CACHE_TTL_MS, ttlResolution: 0, perf })
    this.missing = new LRUCache({ max: MISSING_KEY_CACHE_SIZE, ttl: KEY_CACHE_TTL_MS, ttlResolution: 0, perf })
  }

  /** Checks an Authorization header; throws the contract's 401/403 errors. */
  async authenticate(header: string | null): Promise<KeyHolder> {
    const token = header ? /^Bearer(?:\s+(.*))?$/is.exec(header.trim())?.[1]?.trim() : undefined
    if (!token)
      throw new ApiError('missing_key', 'send your API key as "Authorization: Bearer <key>"', {
        'www-authenticate': CHALLENGE,
      })
    const parsed = parseApiKey(token)
    if (!parsed) throw new ApiError('invalid_key', 'the API key is malformed', INVALID_TOKEN)
    const record = await this.lookup(parsed.id)
    if (!record || !secretMatches(parsed.secret, record.secretHash))
      throw new ApiError('invalid_key', 'the API key does not exist', INVALID_TOKEN)
    if (record.revoked) throw new ApiError('revoked_key', 'the API key has been revoked', INVALID_TOKEN)
    if (record.disabled) {
      throw new ApiError('revoked_key', "the API key's account has been disabled by an operator", INVALID_TOKEN)
    }
    if (record.tier === 'member' && record.role !== 'admin' && record.membership !== 'active') {
      throw new ApiError('plan_required', 'member keys need an active paid membership; renew it to use this key')
    }
    return { keyId: parsed.id, accountId: record.accountId, tier: record.tier }
  }

  /** Drops every cached record: keys or accounts changed. */
  forget(): void {
    this.generation++
    this.found.clear()
    this.missing.clear()
    this.reading.clear()
  }

  private lookup(keyId: string): Promise<KeyRecord | null> {
    const record = this.found.get(keyId)
    if (record) return Promise.resolve(record)
    if (this.missing.get(keyId)) return Promise.resolve(null)
    const pending = this.reading.get(keyId)
    if (pending) return pending
    const generation = this.generation
    const read = this.read(keyId)
      .then((fresh) => {
        if (generation === this.generation) {
          if (fresh) this.found.set(keyId, fresh)
          else this.missing.set(keyId, true)
        }
        return fresh
      })
      .finally(() => {
        if (this.reading.get(keyId) === read) this.reading.delete(keyId)
      })
    this.reading.set(keyId, read)
    return read
  }

  /** One id's record, read with every other id asked for before the next turn of the event loop. */
  private async read(keyId: string): Promise<KeyRecord | null> {
    this.reads.ids++
    if (!this.batch) {
      const ids: string[] = []
      const result = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => {
        if (this.batch?.ids === ids) this.batch = null
        return this.readMany(ids)
      })
      this.batch = { ids, result }
    }
    const { ids, result } = this.batch
    ids.push(keyId)
    if (ids.length >= READ_BATCH) this.batch = null // full: the next id starts another
    return (await result).get(keyId) ?? null
  }

  private async readMany(ids: string[]): Promise<Map<string, KeyRecord>> {
    this.reads.queries++
    const rows = await readKeys(this.db, [ids])
    return new Map(
      rows.map((row) => [
        row.id,
        {
          secretHash: row.secretHash,
          accountId: row.accountId,
          tier: row.tier as 'member' | 'pro',
          revoked: row.revoked,
          role: row.role,
          membership: row.membership,
          disabled: row.disabled,
        },
      ]),
    )
  }
}
