/**
 * Which answers should the confidence maps be fitted on? Compares three designs by 5-fold cross-validation (folds by
 * id, scripts/eval/evaluate.ts) over the records the maps may learn from, never the held-out half:
 *   tuning       the tuning half's answers (its rules were written while reading it, so they look surer there)
 *   calibration  the calibration set's (no rule or model tuned on it, but a different mix: records without ageing terms)
 *   both         the two together
 * For each fold the maps are fitted on the other folds' answers of the design and applied to the fold's answers of
 * both sets; printed per measure and set: the expected calibration error (mean |confidence - share right| weighted by
 * answers, over deciles) and the deciles with 20 or more answers that miss by more than 10 points.
 *
 *   bun scripts/eval/calibration-designs.ts
 */
import { calibrate } from '../../src/analysis/learned/calibration'
import { calibrationMaps, trainedWithAnswers, type Answer, type Answers } from '../train-analyzer'
import { calibrationError, deciles } from './deciles'
import { foldOf, FOLDS } from './evaluate'

type Design = 'tuning' | 'calibration' | 'both'
const DESIGNS: Design[] = ['tuning', 'calibration', 'both']
const MEASURES = ['studyType', 'relevance', 'topic'] as const

function reliability(answers: { confidence: number; correct: boolean }[]) {
  const of = deciles('', answers)
  return { ece: 100 * calibrationError(of), misses: of.filter((d) => d.calibrated === false).length }
}

const inFold = (k: number) => (a: Answer) => foldOf(a.id) === k
const outOfFold = (k: number) => (a: Answer) => foldOf(a.id) !== k
const pick = (a: Answers, keep: (x: Answer) => boolean): Answers =>
  ({ studyType: a.studyType.filter(keep), relevance: a.relevance.filter(keep), topic: a.topic.filter(keep) })

const { tuning, calibration } = trainedWithAnswers()
console.log('| design | measure | ECE, tuning half | misses | ECE, calibration set | misses | ECE, both | misses |')
console.log('|---|---|---:|---:|---:|---:|---:|---:|')
for (const design of DESIGNS) {
  const seen = { tuning: { studyType: [], relevance: [], topic: [] }, calibration: { studyType: [], relevance: [], topic: [] } } as
    Record<'tuning' | 'calibration', Record<(typeof MEASURES)[number], { confidence: number; correct: boolean }[]>>
  for (let k = 0; k < FOLDS; k++) {
    const maps = calibrationMaps(pick(tuning, outOfFold(k)), pick(calibration, outOfFold(k)), design)
    for (const [name, set] of [['tuning', tuning], ['calibration', calibration]] as const) {
      for (const m of MEASURES) {
        for (const a of set[m].filter(inFold(k))) seen[name][m].push({ confidence: calibrate(maps[m], a.confidence), correct: a.correct })
      }
    }
  }
  for (const m of MEASURES) {
    const t = reliability(seen.tuning[m])
    const c = reliability(seen.calibration[m])
    const b = reliability([...seen.tuning[m], ...seen.calibration[m]])
    console.log(`| ${design} | ${m} | ${t.ece.toFixed(1)} | ${t.misses} | ${c.ece.toFixed(1)} | ${c.misses} | ${b.ece.toFixed(1)} | ${b.misses} |`)
  }
}
