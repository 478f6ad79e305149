import { describe, expect, test } from 'bun:test'
import { generateApiKey, hashSecret, isKeyId, parseApiKey, secretMatches } from '../../src/accounts/key-format'

describe('API key format', () => {
  test('generates grk_ + 8-character id + _ + 32-character base62 secret', () => {
    const { id, secret, key } = generateApiKey()
    expect(key).toMatch(/^grk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/)
    expect(key).toBe(`grk_${id}_${secret}`)
    expect(parseApiKey(key)).toEqual({ id, secret })
  })

  test('never repeats itself in practice', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => generateApiKey().key))
    expect(keys.size).toBe(2000)
  })

  test.each([
    ['an empty string', ''],
    ['a wrong prefix', 'gkr_abcdEFGH_0123456789abcdefghijABCDEFGHIJ'],
    ['a short id', 'grk_abcdEFG_0123456789abcdefghijABCDEFGHIJ1'],
    ['a short secret', 'grk_abcdEFGH_0123456789abcdefghijABCDEFGHI'],
    ['a non-base62 character', 'grk_abcd-FGH_0123456789abcdefghijABCDEFGHIJ'],
    ['trailing text', 'grk_abcdEFGH_0123456789abcdefghijABCDEFGHIJ '],
  ])('rejects %s without a look-up', (_name, text) => {
    expect(parseApiKey(text)).toBeNull()
  })

  test('stores a hash that matches only its own secret', () => {
    const { secret } = generateApiKey()
    const stored = hashSecret(secret)
    expect(stored).not.toContain(secret)
    expect(secretMatches(secret, stored)).toBe(true)
    expect(secretMatches(generateApiKey().secret, stored)).toBe(false)
  })

  test('recognises key ids', () => {
    expect(isKeyId('Ab3dE6gH')).toBe(true)
    expect(isKeyId('Ab3dE6g')).toBe(false)
    expect(isKeyId("x' or 1=1")).toBe(false)
  })
})
