import { describe, expect, test } from 'bun:test'
import { handLabelled } from '../../scripts/eval/hand-labelled'
import { accuracy, judge, precision, recall, score } from '../../scripts/eval/evaluate'
import { haveFixtures } from '../../scripts/eval/records'
import { calibrationError, deciles } from '../../scripts/eval/deciles'

// The built-in analyzer on the held-out half of the hand-judged set (records read from ../shared at run time).
// The floors are the figures measured on the 4,722-record held-out half with builtin-8 (issue 34, fourth session;
// docs/benchmarks.md), rounded down, and the ceilings of the expected calibration error rounded up: the test catches
// a regression. They are below the targets (study type
// 90%, band 85%, precision and recall 85%), which the analyzer does not reach on papers it was not tuned on.
if (!haveFixtures) console.log('analysis quality: left out because ../shared/fixtures is missing')

describe.if(haveFixtures)('built-in analyzer on the held-out hand-judged records', () => {
  const heldOut = haveFixtures ? handLabelled().filter((l) => l.half === 'held-out') : []
  const runs = haveFixtures
    ? { 'with MeSH': score(judge(heldOut)), 'MeSH withheld': score(judge(heldOut, { noMesh: true })) }
    : {}

  test.each(Object.entries(runs))('does not fall below the measured figures, %s', (_name, s) => {
    expect(accuracy(s.studyType)).toBeGreaterThanOrEqual(0.83) // 83.9% with MeSH, 83.0% withheld
    expect(accuracy(s.band)).toBeGreaterThanOrEqual(0.96)
    expect(accuracy(s.topic)).toBeGreaterThanOrEqual(0.92)
    expect(precision(s.positives)).toBeGreaterThanOrEqual(0.5)
    expect(recall(s.positives)).toBeGreaterThanOrEqual(0.55)
  })

  test('confidences stay as calibrated as measured (with MeSH and withheld pooled)', () => {
    const all = Object.values(runs)
    const ece = (key: 'studyType' | 'band' | 'topic') =>
      calibrationError(
        deciles(
          key,
          all.flatMap((s) => s.calibration[key]),
        ),
      )
    expect(ece('studyType')).toBeLessThanOrEqual(0.015) // 1.0 points measured
    expect(ece('band')).toBeLessThanOrEqual(0.01) // 0.7
    expect(ece('topic')).toBeLessThanOrEqual(0.03) // 2.6
  })
})
