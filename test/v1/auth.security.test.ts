/**
 * The key cache under a flood of made-up key ids: each distinct id costs at most one database
 * look-up, concurrent look-ups of one id share it, and real keys stay cached throughout.
 */
import { describe, expect, test } from 'bun:test'
import { ApiError } from '../../src/http/errors'
import { KEY_CACHE_SIZE, KEY_CACHE_TTL_MS, KeyAuthenticator } from '../../src/modules/v1/auth'
import { generateApiKey } from '../../src/accounts/key-format'
import { useTestApp } from '../support/app'
import { createTestKey } from '../support/fixtures'

const api = useTestApp()
const header = (key: string) => `Bearer ${key}`

/** Authenticates and returns the error code, or 'ok'. */
async function outcome(keys: KeyAuthenticator, key: string): Promise<string> {
  try {
    await keys.authenticate(header(key))
    return 'ok'
  } catch (error) {
    return error instanceof ApiError ? error.errorCode : 'thrown'
  }
}

describe('the key cache', () => {
  test('a flood of 60,000 made-up ids costs one look-up per distinct id and never evicts a real key', async () => {
    const keys = new KeyAuthenticator(api.database.db, () => 1_000_000) // a still clock: nothing expires meanwhile
    const real = await createTestKey(api.database.db)
    expect(await outcome(keys, real.key)).toBe('ok')
    expect(keys.reads).toEqual({ ids: 1, queries: 1 })

    const made = Array.from({ length: 60_000 }, () => generateApiKey().key)
    // Each made-up key twice, the second time while the first may still be in flight, in waves.
    for (let i = 0; i < made.length; i += 2000) {
      const wave = made.slice(i, i + 2000)
      const outcomes = await Promise.all([...wave, ...wave].map((key) => outcome(keys, key)))
      expect(new Set(outcomes)).toEqual(new Set(['invalid_key']))
      expect(await outcome(keys, real.key)).toBe('ok') // the real key, asked in between, stays cached
    }
    expect(keys.reads.ids).toBe(1 + made.length)
    expect(keys.reads.queries).toBeLessThanOrEqual(1 + made.length / 100) // ids asked together are read together
    expect(KEY_CACHE_SIZE).toBeLessThan(made.length) // the old cache was emptied whole at 50,000 entries

    // Asked again: all remembered as missing, and the real key never needed the database again.
    for (let i = 0; i < made.length; i += 5000)
      await Promise.all(made.slice(i, i + 5000).map((key) => outcome(keys, key)))
    expect(await outcome(keys, real.key)).toBe('ok')
    expect(keys.reads.ids).toBe(1 + made.length)
  }, 240_000)

  test('concurrent look-ups share one query: one read per id, all ids together', async () => {
    const keys = new KeyAuthenticator(api.database.db)
    const real = await createTestKey(api.database.db)
    const missing = generateApiKey().key
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => outcome(keys, i % 2 ? real.key : missing)))
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(25)
    expect(outcomes.filter((o) => o === 'invalid_key')).toHaveLength(25)
    expect(keys.reads).toEqual({ ids: 2, queries: 1 })
  })

  test('a made-up id is remembered for the cache lifetime, then asked again; forget() drops it at once', async () => {
    let clock = 1_000_000
    const keys = new KeyAuthenticator(api.database.db, () => clock)
    const made = generateApiKey()
    expect(await outcome(keys, made.key)).toBe('invalid_key')
    clock += KEY_CACHE_TTL_MS - 1
    expect(await outcome(keys, made.key)).toBe('invalid_key')
    expect(keys.reads.ids).toBe(1)
    clock += 2
    expect(await outcome(keys, made.key)).toBe('invalid_key')
    expect(keys.reads.ids).toBe(2)
    keys.forget()
    expect(await outcome(keys, made.key)).toBe('invalid_key')
    expect(keys.reads.ids).toBe(3)
  })
})
