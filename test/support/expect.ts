/** Shared assertions for the contract's error responses. */
import { expect } from 'bun:test'

/** A 400 invalid_parameter whose message names the problem, not cacheable, with the key's rate-limit headers. */
export async function expectInvalidParameter(response: Response, message: string) {
  expect(response.status).toBe(400)
  expect(response.headers.get('cache-control')).toBe('no-store')
  expect(response.headers.get('x-ratelimit-remaining')).not.toBeNull() // a usable key was presented
  const body = await response.json()
  expect(body).toEqual({ error: { status: 400, code: 'invalid_parameter', message: expect.stringContaining(message) } })
}
