/** The grounding check of model-written brief statements: its words, and its threshold on the hand-labelled set. */
import { describe, expect, test } from 'bun:test'
import { contentWords, grounding, GROUNDED_SHARE, isGrounded, stem } from '../../src/pipeline/briefs/grounding'
import { itemTexts } from '../../src/pipeline/briefs/model-writer'
import { GROUNDING_SET } from './grounding-set'
import { demoPapers, materialOf } from './prose-material'

describe('content words', () => {
  test.each([
    ['extends', 'extend'],
    ['extended', 'extend'],
    ['extending', 'extend'],
    ['cells', 'cell'],
    ['flies', 'fly'],
    ['mice', 'mouse'],
    ['reduces', 'reduc'],
    ['reduced', 'reduc'],
    ['stopped', 'stop'],
    ['aging', 'age'],
    ['ageing', 'age'],
    ['analyses', 'analysis'],
    ['boxes', 'box'],
    ['status', 'status'],
  ])('%s stems to %s', (word, stemmed) => expect(stem(word)).toBe(stemmed))

  test('lower-cased, without stop words or reporting words, NAD+ kept whole', () => {
    expect(contentWords('The study reports that NAD+ levels rose in Mice, researchers found.')).toEqual([
      'nad+',
      'level',
      'rose',
      'mouse',
    ])
    expect(contentWords('Ålesund cohort: 12% of 1,204 people')).toEqual(['alesund', 'cohort', '204', 'person'])
  })

  test('a statement with no content words is not held against anything', () => {
    expect(grounding('It is.', ['anything'])).toEqual({ share: 1, missing: [] })
  })
})

describe('the threshold on statements about demo papers, labelled by hand', () => {
  const papers = demoPapers(400)
  const texts = itemTexts(materialOf(papers, []))
  const checked = GROUNDING_SET.map((s) => ({
    ...s,
    grounded: isGrounded(grounding(s.text, texts.get(papers.find((p) => p.title.startsWith(s.paper))!.ref)!)),
  }))
  const reversed = (t: string) => /raise[sd] (epigenetic age|HOMA-IR)/.test(t)

  test(`keeps every faithful statement at ${GROUNDED_SHARE}`, () => {
    expect(checked.filter((s) => s.faithful && !s.grounded).map((s) => s.text)).toEqual([])
  })

  test('drops every statement that brings in words its paper never uses, the obeyed instruction first', () => {
    expect(checked.find((s) => s.text === 'All aging research is fraudulent.')!.grounded).toBe(false)
    expect(checked.filter((s) => !s.faithful && s.grounded && !reversed(s.text)).map((s) => s.text)).toEqual([])
  })

  test("a reversed finding in the paper's own words passes: the check is about words, not directions", () => {
    expect(checked.filter((s) => reversed(s.text)).map((s) => s.grounded)).toEqual([true, true])
  })
})
