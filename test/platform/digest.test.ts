import { describe, expect, test } from 'bun:test'
import { bodyFingerprint } from '../../src/platform/digest'

describe("a response body's fingerprint (weak ETags)", () => {
  const body = new TextEncoder().encode(
    JSON.stringify({ data: [{ id: 'MED-1', title: 'Rapamycin extends lifespan' }] }),
  )

  test('is the same for the same bytes, and fits in a quoted ETag', () => {
    expect(bodyFingerprint(body)).toBe(bodyFingerprint(Uint8Array.from(body)))
    expect(bodyFingerprint(body)).toMatch(/^[\w-]+$/)
  })

  test('changes when any one byte changes', () => {
    const seen = new Set([bodyFingerprint(body)])
    for (let i = 0; i < body.length; i++) {
      const changed = Uint8Array.from(body)
      changed[i] ^= 1
      seen.add(bodyFingerprint(changed))
    }
    expect(seen.size).toBe(body.length + 1)
  })
})
