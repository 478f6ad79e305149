/**
 * clients/ts/src/schema.d.ts is what clients/ts/generate.ts makes of the document the app serves:
 * a change to the routes' schemas that was not followed by `npx bun clients/ts/generate.ts` fails here.
 */
import { describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { generatorBin, schemaFile, typesFor } from '../../clients/ts/generate'
import { req, useTestApp } from '../support/app'

const api = useTestApp()
const haveGenerator = existsSync(generatorBin)
if (!haveGenerator)
  console.log(
    'typed client: the schema freshness check is left out because tools/openapi-client is not installed (npm ci --prefix tools/openapi-client)',
  )

describe.skipIf(!haveGenerator)("the typed client's committed types", () => {
  test('are what openapi-typescript makes of the served /api/v1/openapi.json (else run npx bun clients/ts/generate.ts)', async () => {
    const document = await (await api.app.handle(req('/api/v1/openapi.json'))).json()
    const committed = readFileSync(schemaFile, 'utf8').split('\n')
    const fresh = typesFor(document).split('\n')
    const at = fresh.findIndex((line, i) => committed[i] !== line)
    // The first line that differs, rather than a diff of 3,000 lines.
    const difference =
      at === -1 && committed.length === fresh.length
        ? null
        : {
            line: (at === -1 ? fresh.length : at) + 1,
            committed: committed[at] ?? '(end of file)',
            generated: fresh[at] ?? '(end of file)',
          }
    expect(difference).toBeNull()
  }, 60_000)
})
