/** Builds the app over a test database; `req` makes requests the way the style guide shows. */
import { buildApp, type AppContext } from '../../src/app'
import { parseConfig } from '../../src/config'
import type { Database } from '../../src/db/client'

export const TEST_SECRET = 'test-secret-that-is-long-enough-0123456789'

export function testApp(database: Database, extra: Partial<Omit<AppContext, 'database' | 'config'>> = {}) {
  const config = { ...parseConfig({ PUBLIC_BASE_URL: 'https://geroscope.test' }), appSecret: TEST_SECRET }
  return buildApp({ config, database, ...extra })
}

export const req = (path: string, init?: RequestInit) => new Request(`http://localhost${path}`, init)
