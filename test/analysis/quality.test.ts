import { describe, expect, test } from 'bun:test'
import { haveFixtures } from '../../scripts/eval/europepmc-records'
import { accuracy, evaluate } from '../../scripts/eval/evaluate'

// The quality targets of the issue, on real Europe PMC records read from ../shared at run time.
if (!haveFixtures) console.log('analysis quality: left out because ../shared/fixtures is missing')

describe.if(haveFixtures)('built-in analyzer on the labelled Europe PMC set', () => {
  const result = haveFixtures ? evaluate() : null

  test('study type accuracy is at least 85%', () => {
    expect(accuracy(result!.studyType)).toBeGreaterThanOrEqual(0.85)
  })

  test('topic accuracy is at least 75%', () => {
    expect(accuracy(result!.topic)).toBeGreaterThanOrEqual(0.75)
  })

  test('relevance band accuracy is at least 85%', () => {
    expect(accuracy(result!.relevance)).toBeGreaterThanOrEqual(0.85)
  })
})
