/**
 * Slow password hashing behind a seam: argon2id (m=65536 KiB, t=2, p=1) in the PHC string format
 * (`$argon2id$v=19$m=65536,t=2,p=1$salt$hash`) on every runtime. Bun.password does it natively
 * on Bun; elsewhere (Deno, Node) hash-wasm's WebAssembly argon2id reads and writes the same
 * format with the same parameters, so an account made under one runtime logs in under the other.
 * `scrypt$...` hashes, written by earlier Deno builds, still verify (node:crypto exists on all).
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'
import { argon2id, argon2Verify } from 'hash-wasm'

/** What Bun.password.hash(..., { algorithm: 'argon2id' }) uses by default; the wasm path matches it. */
export const ARGON2ID = { memorySize: 65536, iterations: 2, parallelism: 1, saltLength: 32, hashLength: 32 }

const scrypt = promisify(scryptCallback) as (p: string, s: Buffer, n: number, o: object) => Promise<Buffer>
const SCRYPT_MAXMEM = 64 * 1024 * 1024

const bun = (globalThis as { Bun?: typeof Bun }).Bun

/** argon2id through hash-wasm (the non-Bun path; exported so tests can cross-check it with Bun.password). */
export function hashArgon2idWasm(password: string): Promise<string> {
  const { saltLength, ...cost } = ARGON2ID
  return argon2id({ password, salt: randomBytes(saltLength), ...cost, outputType: 'encoded' })
}

export function verifyArgon2Wasm(password: string, stored: string): Promise<boolean> {
  return argon2Verify({ password, hash: stored })
}

export async function hashPassword(password: string): Promise<string> {
  if (bun) {
    return bun.password.hash(password, {
      algorithm: 'argon2id',
      memoryCost: ARGON2ID.memorySize,
      timeCost: ARGON2ID.iterations,
    })
  }
  return hashArgon2idWasm(password)
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('scrypt$')) return verifyScrypt(password, stored)
  if (!stored.startsWith('$')) return false // e.g. "!" marks an account that cannot log in
  if (bun) return bun.password.verify(password, stored)
  if (stored.startsWith('$argon2')) return verifyArgon2Wasm(password, stored)
  throw new Error(`this password hash (${stored.split('$')[1]}) needs Bun.password`)
}

async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, hash] = stored.split('$')
  const expected = Buffer.from(hash, 'base64')
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT_MAXMEM,
  })
  return timingSafeEqual(actual, expected)
}
