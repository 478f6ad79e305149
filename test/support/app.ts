/** Builds the app over a test database; `req` makes requests the way the style guide shows. */
import { afterAll, beforeAll } from 'bun:test'
import { buildApp } from '../../src/app'
import type { AppContext } from '../../src/modules/app-context'
import { parseConfig } from '../../src/config'
import type { Database } from '../../src/db/client'
import { KeyUsageRecorder } from '../../src/accounts/key-last-used'
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store'
import { serve, type RunningServer } from '../../src/platform/serve'
import { freshDatabase, type TestDatabase } from './database'
import { createTestKey } from './fixtures'

export const TEST_SECRET = 'test-secret-that-is-long-enough-0123456789'

/**
 * The app over `database`, with the in-process rate limiter and a key-use recorder that only writes
 * when flushed or closed; `env` adds configuration (e.g. TRUST_PROXY).
 */
export async function testApp(
  database: Database,
  extra: Partial<Omit<AppContext, 'database' | 'config'>> = {},
  env: Record<string, string> = {},
) {
  const config = { ...parseConfig({ PUBLIC_BASE_URL: 'https://geroscope.test', ...env }), appSecret: TEST_SECRET }
  const limits = extra.limits ?? (await MemoryRateLimitStore.open(database, new Date()))
  const keyUsage = extra.keyUsage ?? new KeyUsageRecorder(database, { flushEveryMs: 0 })
  return buildApp({ config, database, limits, keyUsage, ...extra })
}

/**
 * The app over `database` on a real socket whose origin is its PUBLIC_BASE_URL (the OpenAPI
 * documents and site links name that origin, so a browser must load the pages from exactly there):
 * a random port, tried again if taken.
 */
export async function serveAtItsOrigin(database: Database): Promise<{ server: RunningServer; origin: string }> {
  for (let attempt = 0; ; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 40_000)
    const origin = `http://127.0.0.1:${port}`
    const app = await testApp(database, {}, { PUBLIC_BASE_URL: origin })
    try {
      return { server: serve(app.fetch, port), origin }
    } catch (error) {
      if (attempt > 5) throw error
    }
  }
}

export const req = (path: string, init?: RequestInit) => new Request(`http://localhost${path}`, init)

export type TestApi = {
  database: TestDatabase
  app: Awaited<ReturnType<typeof testApp>>
  key: string // a pro key, so rate limits stay out of the way
}

/**
 * Gives the calling test file its own database, the app over it and a pro key, made before the
 * file's own beforeAll hooks run and closed after its tests.
 */
export function useTestApp(extra: () => Partial<Omit<AppContext, 'database' | 'config'>> = () => ({})): TestApi {
  const api = {} as TestApi
  beforeAll(async () => {
    api.database = await freshDatabase()
    api.app = await testApp(api.database, extra())
    api.key = (await createTestKey(api.database.db, { tier: 'pro' })).key
  })
  afterAll(async () => {
    await api.database.close()
  })
  return api
}
