/**
 * Slow password hashing behind a seam: argon2id through Bun.password on Bun, scrypt from
 * node:crypto elsewhere (Deno, Node). Each hash names its algorithm, so both verify everywhere
 * the algorithm exists.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'

const scrypt = promisify(scryptCallback) as (p: string, s: Buffer, n: number, o: object) => Promise<Buffer>
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }

const bun = (globalThis as { Bun?: typeof Bun }).Bun

export async function hashPassword(password: string): Promise<string> {
  if (bun) return bun.password.hash(password, { algorithm: 'argon2id' })
  const salt = randomBytes(16)
  const hash = await scrypt(password, salt, 32, SCRYPT)
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('scrypt$')) {
    const [, n, r, p, salt, hash] = stored.split('$')
    const expected = Buffer.from(hash, 'base64')
    const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
      N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem,
    })
    return timingSafeEqual(actual, expected)
  }
  if (!stored.startsWith('$')) return false // e.g. "!" marks an account that cannot log in
  if (!bun) throw new Error('this password hash needs Bun.password (argon2/bcrypt)')
  return bun.password.verify(password, stored)
}
