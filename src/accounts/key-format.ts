/**
 * API key format (docs/contract-decisions.md): `grk_` + 8-character public key id + `_` + 32-character secret,
 * both base62. The id finds the row; only a SHA-256 of the secret is stored. A string not of this
 * shape is rejected before any database look-up.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const KEY_SHAPE = /^grk_([0-9A-Za-z]{8})_([0-9A-Za-z]{32})$/
const ID_SHAPE = /^[0-9A-Za-z]{8}$/

/** Uniform random base62 text (randomInt rejects bias, unlike `byte % 62`). */
function randomBase62(length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)]
  return out
}

export type ParsedKey = { id: string; secret: string }

export function parseApiKey(text: string): ParsedKey | null {
  const match = KEY_SHAPE.exec(text)
  return match ? { id: match[1], secret: match[2] } : null
}

export function isKeyId(text: string): boolean {
  return ID_SHAPE.test(text)
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex')
  const b = Buffer.from(storedHash, 'hex')
  return a.length === b.length && timingSafeEqual(a, b)
}

export function generateApiKey(): { id: string; secret: string; key: string } {
  const id = randomBase62(8)
  const secret = randomBase62(32)
  return { id, secret, key: `grk_${id}_${secret}` }
}
