import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { haveSharedFixtures, noteMissingFixtures } from '../support/shared-fixtures'

noteMissingFixtures('lexicon build')

describe.if(haveSharedFixtures)('lexicon build', () => {
  test('is deterministic and the committed files are what it builds', async () => {
    const { renderLexicon } = await import('../../scripts/lexicon/build')
    const first = renderLexicon().files
    const second = renderLexicon().files
    expect(second).toEqual(first)
    for (const [path, text] of first) {
      expect(
        readFileSync(new URL(`../../src/lexicon/${path}`, import.meta.url), 'utf8') === text,
        `src/lexicon/${path} is stale: run bun scripts/lexicon/build.ts`,
      ).toBe(true)
    }
  }, 60_000)
})
