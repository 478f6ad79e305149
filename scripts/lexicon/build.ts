/**
 * Builds the lexicon the service loads (src/lexicon/generated/curated.json and public.json) from the curated aging
 * entries (src/lexicon/aging-lexicon.json) and public data in ../shared/fixtures: every human
 * protein-coding gene (NCBI Gene via org.Hs.eg.db), GenAge's model-organism genes, DrugAge's compounds
 * with their synonyms, and the aging-gene sets of GenAge, CellAge and Open Genes (which decide how
 * freely a gene's aliases are matched). Also writes generated/former-keys.json: every curated key the
 * key rules changed, which src/lexicon/apply.ts uses to re-key existing databases.
 *
 *   bun scripts/lexicon/build.ts [--check]
 *
 * Deterministic: the same inputs give byte-identical files. --check compares instead of writing and
 * exits 1 when the committed files are stale.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import type { LexiconEntry } from '../../src/lexicon/lexicon'
import { buildLexicon } from './assemble'

const here = (p: string) => new URL(`../../src/lexicon/${p}`, import.meta.url).pathname

/** The three generated files, as text: curated entries (loaded at start-up), the rest (loaded on first use), former keys. */
export function renderLexicon(): { files: [string, string][]; report: string[] } {
  const curated = JSON.parse(readFileSync(here('aging-lexicon.json'), 'utf8')) as LexiconEntry[]
  const built = buildLexicon(curated)
  // One entry per line: small diffs when a source changes, and still one JSON document.
  const lines = (entries: LexiconEntry[]) => `[\n${entries.map((e) => JSON.stringify(e)).join(',\n')}\n]`
  const curatedLines = lines(built.entries.filter((e) => e.curated))
  const publicText = `{"entries": ${lines(built.entries.filter((e) => !e.curated))}}\n`
  const formerKeys = `[\n${built.formerKeys.map((k) => JSON.stringify(k)).join(',\n')}\n]\n`
  // The version databases record once they have applied this lexicon (src/lexicon/apply.ts).
  const version = createHash('sha256')
    .update(curatedLines)
    .update(publicText)
    .update(formerKeys)
    .digest('hex')
    .slice(0, 16)
  return {
    files: [
      ['generated/curated.json', `{"version": "${version}", "entries": ${curatedLines}}\n`],
      ['generated/public.json', publicText],
      ['generated/former-keys.json', formerKeys],
    ],
    report: [...built.report, `version: ${version}`],
  }
}

if (import.meta.main) {
  const { files, report } = renderLexicon()
  if (process.argv.includes('--check')) {
    const stale = files.filter(([p, text]) => {
      try {
        return readFileSync(here(p), 'utf8') !== text
      } catch {
        return true
      }
    })
    for (const [p] of stale) console.error(`stale: src/lexicon/${p} (run bun scripts/lexicon/build.ts)`)
    process.exit(stale.length ? 1 : 0)
  }
  for (const [p, text] of files) writeFileSync(here(p), text)
  for (const line of report) console.log(line)
}
