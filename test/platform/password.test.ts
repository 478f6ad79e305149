/**
 * One password format on every runtime: argon2id PHC strings with the same parameters, so an
 * account made by Bun logs in under Deno (hash-wasm) and the other way round.
 */
import { describe, expect, test } from 'bun:test'
import { ARGON2ID, hashArgon2idWasm, hashPassword, verifyArgon2Wasm, verifyPassword } from '../../src/platform/password'

const PARAMS = `$argon2id$v=19$m=${ARGON2ID.memorySize},t=${ARGON2ID.iterations},p=${ARGON2ID.parallelism}$`

describe('password hashes across runtimes', () => {
  test('Bun writes argon2id with m=65536, t=2, p=1 and so does the WebAssembly path', async () => {
    expect(await hashPassword('a long operator password')).toStartWith(PARAMS)
    expect(await hashArgon2idWasm('a long operator password')).toStartWith(PARAMS)
    expect(PARAMS).toBe('$argon2id$v=19$m=65536,t=2,p=1$')
  })

  test('a hash Bun.password made verifies with hash-wasm, and a wrong password does not', async () => {
    const stored = await Bun.password.hash('a long operator password', { algorithm: 'argon2id' })
    expect(await verifyArgon2Wasm('a long operator password', stored)).toBe(true)
    expect(await verifyArgon2Wasm('a long operator passwore', stored)).toBe(false)
  })

  test('a hash hash-wasm made verifies with Bun.password, and a wrong password does not', async () => {
    const stored = await hashArgon2idWasm('a long operator password')
    expect(await Bun.password.verify('a long operator password', stored)).toBe(true)
    expect(await Bun.password.verify('another password entirely', stored)).toBe(false)
    expect(await verifyPassword('a long operator password', stored)).toBe(true)
  })

  test('each hash has its own salt', async () => {
    expect(await hashArgon2idWasm('same password')).not.toBe(await hashArgon2idWasm('same password'))
  })

  test('an account that cannot log in ("!") never verifies', async () => {
    expect(await verifyPassword('!', '!')).toBe(false)
  })
})
