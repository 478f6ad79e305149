import { describe, expect, test } from 'bun:test'
import * as cues from '../../src/pipeline/analysis/builtin/cues'
import { hitsByPart } from '../../src/pipeline/analysis/builtin/part-hits'
import { readPaper } from '../../src/pipeline/analysis/builtin/reading'
import { generateCorpus } from '../../src/seed/corpus'
import { handLabelled } from '../../scripts/eval/hand-labelled'
import { haveFixtures, recordsOf } from '../../scripts/eval/records'

const CUES = Object.entries(cues).filter((e): e is [string, RegExp] => e[1] instanceof RegExp && e[1].global)
const byPart = (text: string, re: RegExp) => text.match(re)?.length ?? 0

function expectSameCounts(papers: { title: string; abstract: string | null }[]) {
  for (const paper of papers) {
    const reading = readPaper(paper)
    for (const [name, re] of CUES) {
      const one = hitsByPart(reading, re)
      const each = reading.parts.map((p) => byPart(p.text, re))
      if (one.join() !== each.join())
        expect({ name, title: paper.title, one }).toEqual({ name, title: paper.title, one: each })
    }
  }
}

describe('cue counts by part from one pass', () => {
  test('equal matching each part alone, for every global cue, on synthetic papers and texts made to trip a join', () => {
    expect(CUES.length).toBeGreaterThan(10)
    const synthetic = [...generateCorpus({ papers: 300, seed: 3, endDate: '2026-11-01' })].map(({ paper }) => paper)
    const edges = [
      { title: 'Ageing', abstract: 'Older adults. Aged mice were compared. Young versus old. Life span of worms. ' },
      {
        title: 'across the',
        abstract: 'lifespan extension in flies. Aβ and β-amyloid. SIRT1 in Alzheimer.\nCONCLUSIONS: frailty.',
      },
      { title: '', abstract: '' },
      { title: 'No abstract at all', abstract: null },
    ]
    expectSameCounts([...synthetic, ...edges])
  })

  test.if(haveFixtures)('equal matching each part alone on every hand-judged record', () => {
    expectSameCounts(handLabelled().map((l) => recordsOf(l.file).get(l.id)!))
  })

  test('a second question about the same cue is answered from the first pass', () => {
    const reading = readPaper({ title: 'Rapamycin and ageing', abstract: 'We studied ageing in mice. Ageing slowed.' })
    expect(hitsByPart(reading, cues.AGEING)).toBe(hitsByPart(reading, cues.AGEING))
    expect(hitsByPart(reading, cues.AGEING)).toEqual([1, 1, 1])
  })
})
