import { describe, expect, test } from 'bun:test'
import { handLabelled, lundAgreement } from '../../scripts/eval/hand-labelled'
import { recordsOf, haveFixtures } from '../../scripts/eval/records'
import { kappa } from '../../scripts/eval/report'
import { FOLDS, foldOf } from '../../scripts/eval/evaluate'

describe('the evaluation harness', () => {
  test("Cohen's kappa: 1 for perfect agreement, 0 for chance, negative below it", () => {
    expect(kappa([['a', 'a'], ['b', 'b'], ['a', 'a'], ['b', 'b']])).toBe(1)
    expect(kappa([['a', 'a'], ['a', 'b'], ['b', 'a'], ['b', 'b']])).toBeCloseTo(0, 6)
    expect(kappa([['a', 'b'], ['b', 'a']])).toBeLessThan(0)
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

  test.if(haveFixtures)('every hand-judged record is found in its fixture file, with a title and an abstract', () => {
    for (const l of handLabelled()) {
      const record = recordsOf(l.file).get(l.id)
      expect({ id: l.id, found: !!record?.title && !!record?.abstract }).toEqual({ id: l.id, found: true })
    }
  })
})
