import { describe, expect, test } from 'bun:test'
import { accuracy } from '../../scripts/eval/evaluate'
import { consistency } from '../../scripts/eval/mesh-rules/consistency'
import { haveFixtures } from '../../scripts/eval/records'

// The MeSH-rule consistency set, on real Europe PMC records read from ../shared at run time.
if (!haveFixtures) console.log('analysis quality: left out because ../shared/fixtures is missing')

describe.if(haveFixtures)('built-in analyzer on the MeSH-rule consistency set', () => {
  const result = haveFixtures ? consistency() : null

  test('study type accuracy is at least 85%', () => {
    expect(accuracy(result!.studyType)).toBeGreaterThanOrEqual(0.85)
  })

  test('topic accuracy is at least 75%', () => {
    expect(accuracy(result!.topic)).toBeGreaterThanOrEqual(0.75)
  })

  test('relevance band accuracy is at least 85%', () => {
    expect(accuracy(result!.band)).toBeGreaterThanOrEqual(0.85)
  })
})
