import { describe, expect, test } from 'bun:test'
import { calibrationSet, handLabelled, lundAgreement } from '../../scripts/eval/hand-labelled'
import { recordsOf, haveFixtures } from '../../scripts/eval/records'
import { kappa } from '../../scripts/eval/report'
import { FOLDS, foldOf } from '../../scripts/eval/evaluate'

describe('the evaluation harness', () => {
  test("Cohen's kappa: 1 for perfect agreement, 0 for chance, negative below it", () => {
    expect(
      kappa([
        ['a', 'a'],
        ['b', 'b'],
        ['a', 'a'],
        ['b', 'b'],
      ]),
    ).toBe(1)
    expect(
      kappa([
        ['a', 'a'],
        ['a', 'b'],
        ['b', 'a'],
        ['b', 'b'],
      ]),
    ).toBeCloseTo(0, 6)
    expect(
      kappa([
        ['a', 'b'],
        ['b', 'a'],
      ]),
    ).toBeLessThan(0)
  })

  test('the split halves every stratum (labelled file x relevance level), the same way every time', () => {
    const labels = handLabelled()
    for (const set of ['lund-autophagy', 'mixed']) {
      for (const level of [0, 1, 2, 3]) {
        const stratum = labels.filter((l) => l.set === set && l.relevance === level)
        const held = stratum.filter((l) => l.half === 'held-out').length
        expect(held - (stratum.length - held)).toBeOneOf(stratum.length % 2 ? [1] : [0])
      }
    }
    expect(handLabelled().map((l) => `${l.id}:${l.half}`)).toEqual(labels.map((l) => `${l.id}:${l.half}`))
  })

  test('cross-validation folds depend on the id alone and spread the tuning half over every fold', () => {
    const tuning = handLabelled().filter((l) => l.half === 'tuning')
    const sizes = Array.from({ length: FOLDS }, (_, k) => tuning.filter((l) => foldOf(l.id) === k).length)
    expect(sizes.every((n) => n > tuning.length / FOLDS / 2)).toBe(true)
    expect(tuning.map((l) => foldOf(l.id))).toEqual(tuning.map((l) => foldOf(`${l.id}`)))
    expect(foldOf('MED-1')).toBe(foldOf('MED-1'))
  })

  test('the agreement records are Lund records labelled twice', () => {
    for (const { first, second } of lundAgreement()) expect(second.id).toBe(first.id)
  })

  test('the calibration set shares no record with either half, and none comes from a file kept for independent checks', () => {
    const halves = new Set(handLabelled().map((l) => l.id))
    const calibration = calibrationSet()
    expect(calibration.length).toBeGreaterThanOrEqual(200)
    expect(new Set(calibration.map((l) => l.id)).size).toBe(calibration.length)
    expect(calibration.filter((l) => halves.has(l.id)).map((l) => l.id)).toEqual([])
    const independent = /^(europepmc\/|europepmc-agpl\/|europepmc-mixed-core-150\.json)/
    expect(calibration.filter((l) => independent.test(l.file)).map((l) => l.file)).toEqual([])
  })

  test.if(haveFixtures)('every hand-judged record is found in its fixture file, with a title and an abstract', () => {
    for (const l of [...handLabelled(), ...calibrationSet()]) {
      const record = recordsOf(l.file).get(l.id)
      expect({ id: l.id, found: !!record?.title && !!record?.abstract }).toEqual({ id: l.id, found: true })
    }
  })
})
