/**
 * What the learned study type costs the built-in analyzer (issue 34: speed stays at 1,000 papers per second per
 * core or more). Interleaves, in one process and over the same papers, the whole analysis of a paper
 * (analyzePaper, model included) with the model's step alone (learnedStudyType, given the reading and the rules'
 * outcome), so the ratio holds on a noisy machine. Two sets: every hand-judged record (real titles and abstracts
 * from ../shared/fixtures: synergy-v1, Lund autophagy, MEDLINE, PubMedQA, Europe PMC pages) and 2,000 synthetic
 * ageing papers from src/seed.
 *
 *   bun scripts/bench-learned.ts [--runs 5]
 *
 * Prints per run and as medians: µs per paper for the analysis and for the model step, the share of papers the
 * rules were unsure of (the only ones the model reads), and the analysis rate per CPU-second.
 */
import { analyzePaper } from '../src/pipeline/analysis/builtin'
import { readPaper } from '../src/pipeline/analysis/builtin/reading'
import { judgeByRules } from '../src/pipeline/analysis/builtin/rules'
import { learnedStudyType, modelReads } from '../src/pipeline/analysis/learned/shipped'
import type { PaperInput } from '../src/pipeline/analysis/types'
import { syntheticPapers } from './bench/synthetic-papers'
import { handLabelled } from './eval/hand-labelled'
import { haveFixtures, recordsOf } from './eval/records'
import { loadavg } from 'node:os'

const runsArg = process.argv.indexOf('--runs')
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

function bench(name: string, papers: PaperInput[]) {
  const prepared = papers.map((paper) => {
    const reading = readPaper(paper)
    return { paper, reading, rules: judgeByRules(paper, reading).outcome }
  })
  const unsure = prepared.filter((p) => modelReads(p.rules, p.reading.abstract !== '')).length
  for (const p of prepared.slice(0, 200)) {
    analyzePaper(p.paper)
    learnedStudyType(p.paper, p.reading, p.rules)
  } // warm-up
  const whole: number[] = [],
    step: number[] = [],
    perCpu: number[] = []
  for (let run = 1; run <= runs; run++) {
    const cpu = process.cpuUsage()
    let t = performance.now()
    for (const p of prepared) analyzePaper(p.paper)
    whole.push(((performance.now() - t) * 1000) / prepared.length)
    const used = process.cpuUsage(cpu)
    perCpu.push(prepared.length / ((used.user + used.system) / 1e6))
    t = performance.now()
    for (const p of prepared) learnedStudyType(p.paper, p.reading, p.rules)
    step.push(((performance.now() - t) * 1000) / prepared.length)
    console.log(
      `  run ${run}: analysis ${whole.at(-1)!.toFixed(0)} µs/paper, model step ${step.at(-1)!.toFixed(1)} µs/paper`,
    )
  }
  console.log(
    `${name}: ${prepared.length} papers, ${unsure} (${((100 * unsure) / prepared.length).toFixed(0)}%) read by the model; ` +
      `median analysis ${median(whole).toFixed(0)} µs/paper (${(1e6 / median(whole)).toFixed(0)} papers/s wall, ${median(perCpu).toFixed(0)} per CPU-second), ` +
      `model step ${median(step).toFixed(1)} µs/paper = ${((100 * median(step)) / median(whole)).toFixed(1)}% of it`,
  )
}

console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}, ${runs} runs`,
)
if (haveFixtures)
  bench(
    'hand-judged records',
    handLabelled().map((l) => recordsOf(l.file).get(l.id)!),
  )
else console.log('bench-learned: ../shared/fixtures is missing; the hand-judged records are left out')
bench('synthetic ageing papers (src/seed, seed 1)', syntheticPapers())
