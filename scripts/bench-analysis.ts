/**
 * Speed of the built-in analyzer on one core: judgement, entities, claims, story and support for
 * every paper, no database. Two sets: the real Europe PMC core records in ../shared/fixtures (about
 * 200 with abstracts, mostly outside aging, so few stories), and 2,000 synthetic aging papers from
 * src/seed (dense with lexicon terms, many newsworthy, so stories and support checks are included).
 * Each set is cycled to --papers per run.
 *
 *   bun scripts/bench-analysis.ts [--papers 5000] [--runs 5]
 *
 * Prints papers per second for each run and the median. Target: at least 200 papers/s.
 */
import { analyzePaper } from '../src/pipeline/analysis/builtin'
import type { PaperInput } from '../src/pipeline/analysis/types'
import { syntheticPapers } from './bench/synthetic-papers'
import { CONSISTENCY_FILES } from './eval/mesh-rules/files'
import { haveFixtures, recordsOf } from './eval/records'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}

const papers = arg('papers', 5000)
const runs = arg('runs', 5)

function bench(name: string, inputs: PaperInput[]) {
  const words = inputs.reduce((n, p) => n + (p.abstract ?? '').split(/\s+/).length, 0)
  console.log(
    `\n${name}: ${inputs.length} papers (mean ${Math.round(words / inputs.length)} abstract words), ${papers} analysed per run, ${runs} runs`,
  )
  const first = performance.now()
  analyzePaper(inputs[0])
  console.log(
    `first paper: ${(performance.now() - first).toFixed(0)} ms (reads the lexicon and builds the matcher's index the first time)`,
  )
  for (let i = 0; i < 200; i++) analyzePaper(inputs[i % inputs.length]) // warm-up: JIT
  const rates: number[] = []
  const cpuRates: number[] = [] // per second of this process's CPU time: steadier than wall time on a shared machine
  let stories = 0
  for (let run = 1; run <= runs; run++) {
    const started = performance.now()
    const cpu = process.cpuUsage()
    for (let i = 0; i < papers; i++) if (analyzePaper(inputs[i % inputs.length]).story) stories++
    const seconds = (performance.now() - started) / 1000
    const used = process.cpuUsage(cpu)
    rates.push(papers / seconds)
    cpuRates.push(papers / ((used.user + used.system) / 1e6))
    console.log(
      `run ${run}: ${(papers / seconds).toFixed(0)} papers/s (${((1000 * seconds) / papers).toFixed(2)} ms per paper), ${cpuRates.at(-1)!.toFixed(0)} per CPU-second`,
    )
  }
  rates.sort((a, b) => a - b)
  cpuRates.sort((a, b) => a - b)
  console.log(
    `median: ${rates[Math.floor(rates.length / 2)].toFixed(0)} papers/s on one core, ${cpuRates[Math.floor(cpuRates.length / 2)].toFixed(0)} per CPU-second (${Math.round(stories / runs)} stories written per run)`,
  )
}

if (haveFixtures) {
  const byId = new Map(CONSISTENCY_FILES.flatMap((f) => [...recordsOf(f)]))
  bench(
    'real Europe PMC records',
    [...byId.values()].filter((p) => p.abstract),
  )
} else console.log('bench-analysis: ../shared/fixtures is missing; the real-record set is left out')
const synthetic = syntheticPapers()
bench('synthetic aging papers (src/seed, seed 1)', synthetic)
