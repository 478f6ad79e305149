/**
 * What claim extraction costs the built-in analyzer, which must stay at 1,000 papers per second per core or more
 * (docs/benchmarks.md): claim sides are read from their clause (src/pipeline/analysis/builtin/side-phrase.ts), and this
 * measures that step against the whole analysis of the same papers, interleaved in one process so the ratio holds
 * on a noisy machine. Timings on a shared, loaded machine mean little: run it on a quiet one.
 *
 * Two sets: every record with an abstract of literature/easyner-lund-autophagy and literature/synergy-v1 in
 * ../shared/fixtures (the records of scripts/eval/claims-sample.ts) and 2,000 synthetic ageing papers from src/seed.
 * Sentences and lexicon mentions are prepared once, as analyzePaper prepares them, so the step timed is
 * extractClaims alone.
 *
 *   bun scripts/bench-claims.ts [--runs 5] [--base path/to/claims.ts]
 *
 * --base times another extractClaims too (a copy of the file from an earlier commit, placed beside the current one
 * in src/pipeline/analysis/builtin/ so its imports resolve), interleaved with the current one, for a before/after ratio.
 * Prints per set: µs per paper for the whole analysis and for claim extraction, its share, claims per paper.
 */
import { loadavg } from 'node:os'
import { existsSync, readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { analyzePaper } from '../src/pipeline/analysis/builtin'
import { extractClaims } from '../src/pipeline/analysis/builtin/claims'
import { findMentions, type Mention } from '../src/lexicon/matcher'
import { splitSentences, type Sentence } from '../src/pipeline/analysis/builtin/sentences'
import type { PaperInput } from '../src/pipeline/analysis/types'
import { syntheticPapers } from './bench/synthetic-papers'
import { fixturesDir, haveFixtures, readFile } from './eval/records'

const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined)
const runs = Number(arg('--runs') ?? 5)
const basePath = arg('--base')
type Extract = typeof extractClaims
const base: Extract | null = basePath
  ? ((await import(resolve(basePath))) as { extractClaims: Extract }).extractClaims
  : null
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const setting = { organism: null, design: null, evidenceLevel: null, preprint: false, review: false }

/** Sentences and abstract mentions as analyzePaper reads them (mentions of title and abstract read as one text). */
function prepare(paper: PaperInput): { sentences: Sentence[]; mentions: Mention[] } {
  const offset = paper.title.length + 2
  const mentions = findMentions(`${paper.title}\n\n${paper.abstract ?? ''}`)
    .filter((m) => m.start >= offset)
    .map((m) => ({ ...m, start: m.start - offset, end: m.end - offset }))
  return { sentences: splitSentences(paper.abstract ?? ''), mentions }
}

function timed(fn: () => void): number {
  const t = performance.now()
  fn()
  return performance.now() - t
}

function bench(name: string, papers: PaperInput[]) {
  const prepared = papers.map((paper) => ({ paper, ...prepare(paper) }))
  const extract = (f: Extract) => () => {
    for (const p of prepared) f(p.sentences, setting, 6, p.mentions)
  }
  for (const p of prepared.slice(0, 300)) analyzePaper(p.paper) // warm-up
  extract(extractClaims)()
  if (base) extract(base)()
  const whole: number[] = [],
    step: number[] = [],
    before: number[] = []
  for (let run = 1; run <= runs; run++) {
    whole.push(
      (timed(() => {
        for (const p of prepared) analyzePaper(p.paper)
      }) *
        1000) /
        prepared.length,
    )
    step.push((timed(extract(extractClaims)) * 1000) / prepared.length)
    if (base) before.push((timed(extract(base)) * 1000) / prepared.length)
    console.log(
      `  run ${run}: analysis ${whole.at(-1)!.toFixed(0)} µs/paper, ` +
        `claims ${step.at(-1)!.toFixed(1)} µs/paper` +
        (base ? `, base claims ${before.at(-1)!.toFixed(1)} µs/paper` : ''),
    )
  }
  const count = (f: Extract) =>
    prepared.reduce((n, p) => n + f(p.sentences, setting, 6, p.mentions).length, 0) / prepared.length
  console.log(
    `${name}: ${prepared.length} papers; median analysis ${median(whole).toFixed(0)} µs/paper ` +
      `(${(1e6 / median(whole)).toFixed(0)} papers/s), claim extraction ${median(step).toFixed(1)} µs/paper = ` +
      `${((100 * median(step)) / median(whole)).toFixed(1)}% of it; ${count(extractClaims).toFixed(3)} claims/paper` +
      (base ? `; base extraction ${median(before).toFixed(1)} µs/paper, ${count(base).toFixed(3)} claims/paper` : ''),
  )
}

console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}, ${runs} runs (rerun on a quiet machine)`,
)
if (haveFixtures) {
  const synergy = 'literature/synergy-v1/'
  const files = [
    'literature/easyner-lund-autophagy/Lund-Autophagy-1_articles.json',
    ...readdirSync(fixturesDir + synergy)
      .sort()
      .filter((d) => existsSync(`${fixturesDir}${synergy}${d}/works_kept.json.gz`))
      .map((d) => `${synergy}${d}/works_kept.json.gz`),
  ]
  bench(
    'fixture records (Lund, SYNERGY)',
    files.flatMap((f) => readFile(f)).filter((p) => p.abstract),
  )
} else console.log('bench-claims: ../shared/fixtures is missing; the fixture records are left out')
const synthetic = syntheticPapers()
bench('synthetic ageing papers (src/seed, seed 1)', synthetic)
