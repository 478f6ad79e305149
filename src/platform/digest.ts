/**
 * A fast fingerprint of a response body, for weak ETags, behind a seam. On Bun it is xxHash3 (64
 * bits), which reads a 36 kB list page in under half a microsecond where SHA-256 took 17 (measured
 * with Bun 1.4.5); elsewhere it is SHA-256 from node:crypto. A weak validator only has to change
 * when one resource's body changes, so 64 bits are plenty, and nothing outside compares it with
 * anything but the ETag it was given. Instances on different runtimes give different ETags for the
 * same body: a client moving between them gets a 200 instead of a 304, never a wrong 304.
 */
import { createHash } from 'node:crypto'

const bun = (globalThis as { Bun?: typeof Bun }).Bun

export const bodyFingerprint: (body: Uint8Array) => string = bun
  ? (body) => bun.hash.xxHash3(body).toString(36)
  : (body) => createHash('sha256').update(body).digest('base64url').slice(0, 32)
