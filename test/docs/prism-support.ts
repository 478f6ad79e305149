/**
 * Stoplight Prism (tools/prism) as a validating proxy in front of a served app: every answer that
 * passes through it is checked against the OpenAPI document, and what does not agree comes back in
 * its `sl-violations` header (one JSON array per answer). test/docs/prism.test.ts drives it.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'

const root = join(import.meta.dir, '../..')
export const prismBin = join(root, 'tools/prism/node_modules/.bin/prism')
export const havePrism = existsSync(prismBin)

export type Violation = { location: string[]; severity: string; code?: string | number; message: string }

export type PrismProxy = { origin: string; stop: () => Promise<void> }

/** Prism proxying to `upstream` under `document`, listening on a free port once it says so. */
export async function startPrism(document: object, upstream: string): Promise<PrismProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'geroscope-prism-'))
  const file = join(dir, 'openapi.json')
  writeFileSync(file, JSON.stringify(document))
  for (let attempt = 0; ; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 40_000)
    const child: Subprocess<'ignore', 'pipe', 'pipe'> = Bun.spawn(
      [
        'node',
        prismBin,
        'proxy',
        file,
        upstream,
        '--port',
        String(port),
        '--host',
        '127.0.0.1',
        '--errors',
        'false',
        '--cors',
        'false',
        '--verboseLevel',
        'warn',
      ],
      { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
    )
    const origin = `http://127.0.0.1:${port}`
    const stop = async () => {
      child.kill()
      await child.exited
    }
    // Prism prints nothing at warn level once listening: poll its port until it answers, or it exits.
    const deadline = Date.now() + 120_000
    let exited = false
    child.exited.then(() => {
      exited = true
    })
    while (!exited && Date.now() < deadline) {
      try {
        await fetch(`${origin}/api/v1/openapi.json`)
        return { origin, stop }
      } catch {
        await Bun.sleep(250)
      }
    }
    const output = `${await new Response(child.stdout).text()}${await new Response(child.stderr).text()}`
    await stop()
    if (attempt >= 3) throw new Error(`prism did not start:\n${output}`)
  }
}

/** The violations Prism found in the answer it passed on (request violations left out unless asked). */
export function violationsOf(response: Response, where: 'response' | 'request' | 'unrouted' = 'response'): Violation[] {
  const header = response.headers.get('sl-violations')
  if (!header) return []
  let all: Violation[]
  try {
    all = JSON.parse(header) as Violation[]
  } catch {
    // Prism says so in words when the list would not fit a header
    return where === 'response' ? [{ location: ['response'], severity: 'Error', message: header }] : []
  }
  // A request no operation of the document matches is passed on unchecked, with this warning.
  if (where === 'unrouted') return all.filter((v) => v.message === 'Selected route not found')
  return all.filter((v) => v.location?.[0] === where)
}
