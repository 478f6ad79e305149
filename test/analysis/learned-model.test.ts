/**
 * The learned study-type model (src/pipeline/analysis/learned/model.json) is what scripts/train-analyzer.ts makes from
 * the hand-judged tuning half: retraining reproduces the committed file byte for byte, so the weights are
 * never edited by hand and a change to the labels, the features or the trainer shows up here until the model is
 * retrained. Records are read from ../shared at run time.
 */
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { buildModel } from '../../scripts/train-analyzer'
import { haveFixtures } from '../../scripts/eval/records'
import { probabilities, train, type SoftmaxModel } from '../../src/pipeline/analysis/learned/softmax'
import {
  calibrate,
  calibrateGrouped,
  fitCalibration,
  fitGrouped,
} from '../../src/pipeline/analysis/learned/calibration'
import { compile, scorePaper } from '../../src/pipeline/analysis/learned/compiled'
import { featuresFor } from '../../src/pipeline/analysis/learned/judge'
import { ruleOffset } from '../../src/pipeline/analysis/learned/rules-as-features'
import { readPaper } from '../../src/pipeline/analysis/builtin/reading'
import { judgeByRules } from '../../src/pipeline/analysis/builtin/rules'
import { handLabelled } from '../../scripts/eval/hand-labelled'
import { recordsOf, withoutMesh } from '../../scripts/eval/records'
import { STUDY_TYPES } from '../../src/taxonomy'
import shipped from '../../src/pipeline/analysis/learned/model.json'

if (!haveFixtures) console.log('learned model retraining: left out because ../shared/fixtures is missing')

describe.if(haveFixtures)('the committed learned model', () => {
  test('is what training on the tuning half makes', () => {
    const committed = readFileSync(new URL('../../src/pipeline/analysis/learned/model.json', import.meta.url), 'utf8')
    expect(`${JSON.stringify(buildModel())}\n`).toBe(committed)
  }, 600_000) // six models are trained: about a minute on a quiet machine, several on a loaded one
})

describe.if(haveFixtures)('the model as the analyzer runs it', () => {
  // The analyzer scores without building feature names (src/pipeline/analysis/learned/compiled.ts); training and
  // cross-validation score the names. Both must give the same probabilities on every kind of record.
  test('gives the probabilities the trainer measured, on every hand-judged record, with and without MeSH', () => {
    const model = (shipped as unknown as { studyType: SoftmaxModel }).studyType
    const compiled = compile(model)
    let largest = 0
    for (const label of handLabelled()) {
      const record = recordsOf(label.file).get(label.id)!
      for (const paper of [record, withoutMesh(record)]) {
        const reading = readPaper(paper)
        const rules = judgeByRules(paper, reading).outcome
        const offset = ruleOffset(STUDY_TYPES, rules.studyType, rules.studyTypeConfidence)
        const expected = probabilities(model, featuresFor(paper, reading, rules, 'text+rules'), offset)
        const got = scorePaper(compiled, paper, reading, rules, offset)
        for (let k = 0; k < expected.length; k++) largest = Math.max(largest, Math.abs(expected[k] - got[k]))
      }
    }
    expect(largest).toBeLessThan(1e-9)
  }, 600_000) // 9,432 records scored twice each way: about a minute on a quiet machine
})

describe('calibration maps', () => {
  const observations = (
    pairs: [number, number, number][], // [confidence, right, wrong]
  ) =>
    pairs.flatMap(([confidence, right, wrong]) => [
      ...Array.from({ length: right }, () => ({ confidence, correct: true })),
      ...Array.from({ length: wrong }, () => ({ confidence, correct: false })),
    ])

  test('map each confidence to the share right at it, pooling bins whose share falls as confidence rises', () => {
    const map = fitCalibration(
      observations([
        [0.5, 30, 30],
        [0.7, 35, 15],
        [0.8, 30, 20],
        [0.95, 57, 3],
      ]),
      40,
    )
    expect(map.map(([, y]) => y)).toEqual([0.5, 0.65, 0.95]) // 0.7 (70%) and 0.8 (60%) pooled: 65 of 100
    for (let i = 1; i < map.length; i++) expect(map[i][1]).toBeGreaterThan(map[i - 1][1])
  })

  test('never split a run of equal confidences between bins', () => {
    const map = fitCalibration(
      observations([
        [0.6, 50, 50],
        [0.9, 90, 10],
      ]),
      30,
    )
    expect(map).toEqual([
      [0.6, 0.5],
      [0.9, 0.9],
    ])
  })

  test('interpolate between knots, hold the ends, and keep within 0.01 and 0.99', () => {
    const map: [number, number][] = [
      [0.5, 0.4],
      [0.9, 0.8],
    ]
    expect(calibrate(map, 0.7)).toBeCloseTo(0.6, 10)
    expect(calibrate(map, 0.2)).toBe(0.4)
    expect(calibrate(map, 1)).toBe(0.8)
    expect(calibrate([[0.9, 1]], 0.95)).toBe(0.99)
    expect(calibrate([], 0.42)).toBe(0.42)
  })

  test('by source: two sources at the same confidence get their own shares, shrunk toward the pooled map', () => {
    const group = (name: string, confidence: number, right: number, wrong: number) =>
      observations([[confidence, right, wrong]]).map((o) => ({ ...o, group: name }))
    // Two rules that both say 0.72: one right 90 times in 100, one 20 times in 100; pooled 55%.
    const fitted = fitGrouped([...group('good rule', 0.72, 90, 10), ...group('bad rule', 0.72, 20, 80)], 40, 20, 20)
    expect(calibrate(fitted.pooled, 0.72)).toBeCloseTo(0.55, 10)
    expect(calibrateGrouped(fitted, 'good rule', 0.72)).toBeCloseTo((100 * 0.9 + 20 * 0.55) / 120, 3)
    expect(calibrateGrouped(fitted, 'bad rule', 0.72)).toBeCloseTo((100 * 0.2 + 20 * 0.55) / 120, 3)
    expect(calibrateGrouped(fitted, 'a rule never seen', 0.72)).toBeCloseTo(0.55, 10)
    // A source seen a few times moves the pooled answer little.
    const few = fitGrouped([...group('common', 0.8, 160, 40), ...group('rare', 0.8, 0, 4)], 40, 20, 20)
    expect(calibrateGrouped(few, 'rare', 0.8)).toBeGreaterThan(0.6)
    expect(calibrateGrouped(few, 'rare', 0.8)).toBeLessThan(calibrate(few.pooled, 0.8))
    // Beyond the confidences a source's answers had, its map says nothing: the pooled map answers.
    const narrow = fitGrouped(
      [...group('sure rule', 0.9, 95, 5), ...group('other', 0.3, 3, 17), ...group('other', 0.9, 90, 10)],
      20,
      20,
      20,
    )
    expect(calibrateGrouped(narrow, 'sure rule', 0.3)).toBe(calibrate(narrow.pooled, 0.3))
    expect(calibrateGrouped(narrow, 'sure rule', 0.3)).toBeLessThan(0.2)
  })
})

describe('softmax training', () => {
  const examples = [
    { features: ['a:trial', 'a:randomised'], label: 'trial' },
    { features: ['a:trial', 'a:placebo'], label: 'trial' },
    { features: ['a:mice', 'a:knockout'], label: 'animal' },
    { features: ['a:mice', 'a:aged'], label: 'animal' },
  ]
  const options = { l2: 0.001, steps: 200, learningRate: 0.1 }

  test('learns separable classes, with probabilities that sum to one', () => {
    const model = train(
      examples,
      ['trial', 'animal'],
      ['a:aged', 'a:knockout', 'a:mice', 'a:placebo', 'a:randomised', 'a:trial'],
      options,
    )
    const p = probabilities(model, ['a:trial'])
    expect(p[0]).toBeGreaterThan(0.9)
    expect(p[0] + p[1]).toBeCloseTo(1, 10)
    expect(probabilities(model, ['a:mice'])[1]).toBeGreaterThan(0.9)
  })

  test('is deterministic, and an offset moves the answer the way it points', () => {
    const vocabulary = ['a:mice', 'a:trial']
    expect(train(examples, ['trial', 'animal'], vocabulary, options)).toEqual(
      train(examples, ['trial', 'animal'], vocabulary, options),
    )
    const model = train(examples, ['trial', 'animal'], vocabulary, options)
    const neutral = probabilities(model, [])
    const pushed = probabilities(model, [], [Math.log(0.9), Math.log(0.1)])
    expect(pushed[0]).toBeGreaterThan(neutral[0])
  })
})
