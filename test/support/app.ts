/** Builds the app over a test database; `req` makes requests the way the style guide shows. */
import { buildApp, type AppContext } from '../../src/app'
import { parseConfig } from '../../src/config'
import type { Database } from '../../src/db/client'
import { MemoryRateLimitStore } from '../../src/modules/v1/rate-limit/memory-store'

export const TEST_SECRET = 'test-secret-that-is-long-enough-0123456789'

/** The app over `database`, with an in-memory rate limiter that only flushes when closed. */
export async function testApp(database: Database, extra: Partial<Omit<AppContext, 'database' | 'config'>> = {}) {
  const config = { ...parseConfig({ PUBLIC_BASE_URL: 'https://geroscope.test' }), appSecret: TEST_SECRET }
  const limits = extra.limits ?? await MemoryRateLimitStore.open(database, new Date(), { flushEveryMs: 0 })
  return buildApp({ config, database, limits, ...extra })
}

export const req = (path: string, init?: RequestInit) => new Request(`http://localhost${path}`, init)
