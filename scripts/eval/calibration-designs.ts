/**
 * Which answers should the confidence maps be fitted on? Compares three designs by 5-fold cross-validation (folds by
 * id, scripts/eval/evaluate.ts) over the records the maps may learn from, never the held-out half:
 *   tuning       the tuning half's answers (its rules were written while reading it, so they look surer there)
 *   calibration  the calibration set's (no rule or model tuned on it, but a different mix: records without ageing terms)
 *   both         the two together
 * and, for each, one map of the confidence alone or a map per source as well (the second signal: the relevance rule
 * that fired, the study type's source — the rules alone, the model agreeing with them or overruling them — and a
 * named topic or "other"; src/pipeline/analysis/learned/calibration.ts), each source's map shrunk toward the pooled one by a
 * prior of 10, 20 or 40 answers.
 * For each fold the maps are fitted on the other folds' answers of the design and applied to the fold's answers of
 * both sets; printed per measure and set: the expected calibration error (mean |confidence - share right| weighted by
 * answers, over deciles) and the deciles with 20 or more answers that miss by more than 10 points.
 *
 *   bun scripts/eval/calibration-designs.ts
 */
import { calibrateGrouped } from '../../src/pipeline/analysis/learned/calibration'
import { calibrationMaps, trainedWithAnswers, type Answer, type Answers } from '../train-analyzer'
import { calibrationError, deciles } from './deciles'
import { foldOf, FOLDS } from './evaluate'

type Design = { on: 'tuning' | 'calibration' | 'both'; bySource: boolean; prior?: number }
const DESIGNS: Design[] = [
  ...(['tuning', 'calibration', 'both'] as const).flatMap((on) => [
    { on, bySource: false },
    { on, bySource: true },
  ]),
  { on: 'both', bySource: true, prior: 10 },
  { on: 'both', bySource: true, prior: 40 },
]
const nameOf = (d: Design) => `${d.on}${d.bySource ? `, by source (prior ${d.prior ?? 'default'})` : ', one map'}`
const MEASURES = ['studyType', 'relevance', 'topic'] as const

function reliability(answers: { confidence: number; correct: boolean }[]) {
  const of = deciles('', answers)
  return { ece: 100 * calibrationError(of), misses: of.filter((d) => d.calibrated === false).length }
}

const inFold = (k: number) => (a: Answer) => foldOf(a.id) === k
const outOfFold = (k: number) => (a: Answer) => foldOf(a.id) !== k
const pick = (a: Answers, keep: (x: Answer) => boolean): Answers => ({
  studyType: a.studyType.filter(keep),
  relevance: a.relevance.filter(keep),
  topic: a.topic.filter(keep),
})

const { tuning, calibration } = trainedWithAnswers()
console.log('| design | measure | ECE, tuning half | misses | ECE, calibration set | misses | ECE, both | misses |')
console.log('|---|---|---:|---:|---:|---:|---:|---:|')
for (const design of DESIGNS) {
  const seen = {
    tuning: { studyType: [], relevance: [], topic: [] },
    calibration: { studyType: [], relevance: [], topic: [] },
  } as Record<'tuning' | 'calibration', Record<(typeof MEASURES)[number], { confidence: number; correct: boolean }[]>>
  for (let k = 0; k < FOLDS; k++) {
    const maps = calibrationMaps(pick(tuning, outOfFold(k)), pick(calibration, outOfFold(k)), design.on, {
      bySource: { studyType: design.bySource, relevance: design.bySource, topic: design.bySource },
      prior: design.prior,
    })
    for (const [name, set] of [
      ['tuning', tuning],
      ['calibration', calibration],
    ] as const) {
      for (const m of MEASURES) {
        for (const a of set[m].filter(inFold(k)))
          seen[name][m].push({ confidence: calibrateGrouped(maps[m], a.group, a.confidence), correct: a.correct })
      }
    }
  }
  for (const m of MEASURES) {
    const t = reliability(seen.tuning[m])
    const c = reliability(seen.calibration[m])
    const b = reliability([...seen.tuning[m], ...seen.calibration[m]])
    console.log(
      `| ${nameOf(design)} | ${m} | ${t.ece.toFixed(1)} | ${t.misses} | ${c.ece.toFixed(1)} | ${c.misses} | ${b.ece.toFixed(1)} | ${b.misses} |`,
    )
  }
}
