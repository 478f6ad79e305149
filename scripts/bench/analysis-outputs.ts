/**
 * A fingerprint of the built-in analyzer's output, to prove a speed change changes nothing: analyzePaper over
 * every record of every fixture file the hand-judged sets read (scripts/eval/hand-labelled/*.json) and the
 * analyzer benchmarks' sets (the real Europe PMC records and the 2,000 synthetic papers), each with and without
 * MeSH, and one SHA-256 per paper of its JSON output.
 *
 *   bun scripts/bench/analysis-outputs.ts --write FILE     record this checkout's hashes
 *   bun scripts/bench/analysis-outputs.ts --compare FILE   check this checkout gives the same hashes (exit 1 if not)
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { analyzePaper } from '../../src/pipeline/analysis/builtin'
import type { PaperInput } from '../../src/pipeline/analysis/types'
import { CONSISTENCY_FILES } from '../eval/mesh-rules/files'
import { readFile, withoutMesh } from '../eval/records'
import { syntheticPapers } from './synthetic-papers'

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : undefined
}

const labelled = fileURLToPath(new URL('../eval/hand-labelled/', import.meta.url))
const files = new Set<string>(CONSISTENCY_FILES)
for (const name of readdirSync(labelled).filter((n) => n.endsWith('.json'))) {
  const body = JSON.parse(readFileSync(labelled + name, 'utf8')) as { source?: string; papers: { file?: string }[] }
  for (const p of body.papers) {
    const file = p.file ?? body.source
    if (file) files.add(file)
  }
}

const sets: [string, PaperInput[]][] = [...files].sort().map((f) => [f, readFile(f)])
sets.push(['synthetic', syntheticPapers()])

const hashes: Record<string, string> = {}
let papers = 0
const started = performance.now()
for (const [name, records] of sets) {
  records.forEach((record, i) => {
    for (const [variant, paper] of [
      ['mesh', record],
      ['no-mesh', withoutMesh(record)],
    ] as const) {
      const json = JSON.stringify(analyzePaper(paper))
      hashes[`${name}#${i}:${record.id}:${variant}`] = createHash('sha256').update(json).digest('hex')
      papers++
    }
  })
}
console.log(`${papers} analyses of ${sets.length} sets in ${((performance.now() - started) / 1000).toFixed(1)} s`)

const write = arg('write')
if (write) writeFileSync(write, `${JSON.stringify(hashes, null, 0)}\n`)
const compare = arg('compare')
if (compare) {
  const before = JSON.parse(readFileSync(compare, 'utf8')) as Record<string, string>
  const keys = new Set([...Object.keys(before), ...Object.keys(hashes)])
  const differ = [...keys].filter((k) => before[k] !== hashes[k])
  for (const k of differ.slice(0, 20)) console.log(`differs: ${k}`)
  console.log(`${keys.size} papers compared, ${differ.length} differ`)
  if (differ.length) process.exit(1)
}
