/** Preloaded before every test file (bunfig.toml): one teardown for the whole run. */
import { afterAll } from 'bun:test'
import { dropTestDatabases, testDriver } from './database'

console.log(`tests run on ${testDriver === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite'}`)

afterAll(async () => {
  await dropTestDatabases()
})
