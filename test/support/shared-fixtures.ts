/**
 * The recorded Europe PMC answers and real feeds in ../shared/fixtures (see its SOURCES.md), read in
 * place and never copied into the project. A clone without ../shared leaves those tests out and says so.
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const sharedFixtureDir = fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url))
export const haveSharedFixtures = existsSync(sharedFixtureDir)

/** Logs, once per file, that the fixture-based tests of `what` were left out. */
export function noteMissingFixtures(what: string): void {
  if (!haveSharedFixtures) console.log(`${what}: tests on ../shared/fixtures left out because the folder is missing`)
}

export const sharedFixtureBytes = (path: string): Uint8Array<ArrayBuffer> =>
  new Uint8Array(readFileSync(sharedFixtureDir + path))
export const sharedFixtureJson = <T = unknown>(path: string): T =>
  JSON.parse(readFileSync(sharedFixtureDir + path, 'utf8')) as T
