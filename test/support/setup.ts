/** Preloaded before every test file (bunfig.toml): one teardown for the whole run. */
import { afterAll } from 'bun:test'
import { dropTestDatabases, testDriver, warmTemplate } from './database'

console.log(`tests run on ${testDriver === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite'}`)

// Migrate the template once, before any file's hooks run, so each test's database is a quick copy.
await warmTemplate()

afterAll(async () => {
  await dropTestDatabases()
}, 600_000) // dropping some 80 databases can take minutes on a busy server
