/**
 * The learned study-type model (src/analysis/learned/model.json) is what scripts/train-analyzer.ts makes from
 * the hand-judged tuning half: retraining reproduces the committed file byte for byte, so the weights are
 * never edited by hand and a change to the labels, the features or the trainer shows up here until the model is
 * retrained. Records are read from ../shared at run time.
 */
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { buildModel } from '../../scripts/train-analyzer'
import { haveFixtures } from '../../scripts/eval/records'
import { probabilities, train } from '../../src/analysis/learned/softmax'

if (!haveFixtures) console.log('learned model retraining: left out because ../shared/fixtures is missing')

describe.if(haveFixtures)('the committed learned model', () => {
  test('is what training on the tuning half makes', () => {
    const committed = readFileSync(new URL('../../src/analysis/learned/model.json', import.meta.url), 'utf8')
    expect(`${JSON.stringify(buildModel())}\n`).toBe(committed)
  }, 180_000)
})

describe('softmax training', () => {
  const examples = [
    { features: ['a:trial', 'a:randomised'], label: 'trial' }, { features: ['a:trial', 'a:placebo'], label: 'trial' },
    { features: ['a:mice', 'a:knockout'], label: 'animal' }, { features: ['a:mice', 'a:aged'], label: 'animal' },
  ]
  const options = { l2: 0.001, steps: 200, learningRate: 0.1 }

  test('learns separable classes, with probabilities that sum to one', () => {
    const model = train(examples, ['trial', 'animal'], ['a:aged', 'a:knockout', 'a:mice', 'a:placebo', 'a:randomised', 'a:trial'], options)
    const p = probabilities(model, ['a:trial'])
    expect(p[0]).toBeGreaterThan(0.9)
    expect(p[0] + p[1]).toBeCloseTo(1, 10)
    expect(probabilities(model, ['a:mice'])[1]).toBeGreaterThan(0.9)
  })

  test('is deterministic, and an offset moves the answer the way it points', () => {
    const vocabulary = ['a:mice', 'a:trial']
    expect(train(examples, ['trial', 'animal'], vocabulary, options)).toEqual(train(examples, ['trial', 'animal'], vocabulary, options))
    const model = train(examples, ['trial', 'animal'], vocabulary, options)
    const neutral = probabilities(model, [])
    const pushed = probabilities(model, [], [Math.log(0.9), Math.log(0.1)])
    expect(pushed[0]).toBeGreaterThan(neutral[0])
  })
})
