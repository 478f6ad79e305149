/**
 * Regenerates src/schema.d.ts, the client's types, from the Data API's OpenAPI document with
 * openapi-typescript (installed in tools/openapi-client: it needs TypeScript 5).
 *
 *   npx bun clients/ts/generate.ts                      # the document of this checkout's app (in-memory PGlite)
 *   npx bun clients/ts/generate.ts https://host/         # the document a running service serves
 *
 * test/clients/schema.test.ts checks that the committed file is what this produces.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
export const schemaFile = fileURLToPath(new URL('./src/schema.d.ts', import.meta.url))
export const generatorBin = join(root, 'tools/openapi-client/node_modules/.bin/openapi-typescript')

type Document = { paths?: Record<string, unknown>; components?: Record<string, Record<string, unknown>> }
const sortedByKey = (map: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))

/**
 * The document with its paths and named components in name order: the service lists component
 * schemas in the order its modules were first loaded, which differs between processes (a test run
 * loads them in another order), and the types should not.
 */
function canonical(document: Document): Document {
  const components = Object.fromEntries(
    Object.entries(document.components ?? {}).map(([kind, map]) => [kind, sortedByKey(map)]),
  )
  return { ...document, paths: sortedByKey(document.paths ?? {}), components }
}

/** The types openapi-typescript makes of `document` (the parsed /api/v1/openapi.json). */
export function typesFor(document: unknown): string {
  if (!existsSync(generatorBin))
    throw new Error('openapi-typescript is not installed: npm ci --prefix tools/openapi-client')
  const dir = mkdtempSync(join(tmpdir(), 'geroscope-client-'))
  try {
    writeFileSync(join(dir, 'v1.json'), JSON.stringify(canonical(document as Document)))
    const run = spawnSync(generatorBin, [join(dir, 'v1.json'), '-o', join(dir, 'v1.d.ts')], { encoding: 'utf8' })
    if (run.status !== 0) throw new Error(`openapi-typescript failed: ${run.stdout}${run.stderr}`)
    return readFileSync(join(dir, 'v1.d.ts'), 'utf8')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The document this checkout's app serves, built over an empty in-memory database. */
async function localDocument(): Promise<unknown> {
  const { buildApp } = await import('../../src/app')
  const { parseConfig } = await import('../../src/config')
  const { createPglite, openDatabase } = await import('../../src/db/client')
  const { migrateDatabase } = await import('../../src/db/migrate')
  const { MemoryRateLimitStore } = await import('../../src/rate-limit/memory-store')
  const { KeyUsageRecorder } = await import('../../src/accounts/key-last-used')
  const database = await openDatabase({ kind: 'pglite-instance', client: await createPglite() })
  try {
    await migrateDatabase(database)
    const config = {
      ...parseConfig({ PUBLIC_BASE_URL: 'https://geroscope.test' }),
      appSecret: 'generate-client-types-only-0123456789',
    }
    const keyUsage = new KeyUsageRecorder(database, { flushEveryMs: 0 })
    const app = buildApp({ config, database, limits: await MemoryRateLimitStore.open(database), keyUsage })
    return await (await app.handle(new Request('http://localhost/api/v1/openapi.json'))).json()
  } finally {
    await database.close()
  }
}

if (import.meta.main) {
  const base = process.argv[2]
  const document = base ? await (await fetch(new URL('/api/v1/openapi.json', base))).json() : await localDocument()
  writeFileSync(schemaFile, typesFor(document))
  console.log(`wrote ${schemaFile}`)
  process.exit(0) // the app's timers (snapshot, key usage) would keep the process alive
}
