/**
 * The hand-judged evaluation set: records labelled by editors who read title, abstract and publication
 * types by docs/judgement-guidelines.md (files in ./hand-labelled, ids and labels only), and
 * its fixed split into a tuning half and a held-out half.
 *
 * The split rule (fixed before any result was looked at; never change it):
 *   stratum  = labelled file (lund-autophagy, mixed, synergy) x relevance level (0, 1, 2, 3)
 *   order    = within a stratum, ascending SHA-256 of "geroscope-eval-split:" + id (hex)
 *   half     = 1st, 3rd, 5th ... of that order held out; 2nd, 4th, 6th ... for tuning
 * So each stratum is halved (an odd one gives the held-out half the extra record), and which half a record
 * falls in depends only on its id, its file and its label, never on the analyzer.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { StudyType, TopicSlug } from '../../src/taxonomy'

export type HandLabel = {
  id: string
  file: string // the fixture file the record is read from, under ../shared/fixtures
  relevance: 0 | 1 | 2 | 3
  study_type: StudyType
  topic: TopicSlug
  newsworthiness: 0 | 1 | 2 | 3
  rationale: string
}
export type Half = 'held-out' | 'tuning'
export type SplitLabel = HandLabel & { set: string; half: Half }

const here = fileURLToPath(new URL('./hand-labelled/', import.meta.url))

/** The labelled files of the development set (the agreement file is a second opinion, not more records). */
export const SETS = [
  'lund-autophagy',
  'mixed',
  'synergy',
  'synergy-2',
  'lund-2',
  'synergy-3',
  'lund-3',
  'mixed-2',
] as const

type LabelFile = { source?: string; papers: (Omit<HandLabel, 'file'> & { file?: string })[] }

function readLabels(name: string): HandLabel[] {
  const body = JSON.parse(readFileSync(`${here}${name}.json`, 'utf8')) as LabelFile
  return body.papers.map((p) => {
    const file = p.file ?? body.source
    if (!file) throw new Error(`${name}.json: ${p.id} names no fixture file`)
    return { ...p, file }
  })
}

const splitKey = (id: string) => createHash('sha256').update(`geroscope-eval-split:${id}`).digest('hex')

/** Every hand-judged record with its half, in file order. */
export function handLabelled(): SplitLabel[] {
  const out: SplitLabel[] = []
  for (const set of SETS) {
    const labels = readLabels(set)
    const half = new Map<string, Half>()
    for (const level of [0, 1, 2, 3]) {
      const stratum = labels.filter((l) => l.relevance === level).map((l) => ({ id: l.id, key: splitKey(l.id) }))
      stratum.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      stratum.forEach((s, i) => half.set(s.id, i % 2 === 0 ? 'held-out' : 'tuning'))
    }
    for (const l of labels) out.push({ ...l, set, half: half.get(l.id)! })
  }
  return out
}

/**
 * The calibration set (hand-labelled/calibration.json): a third split, read by the same guidelines, on which only the
 * confidence maps are fitted (scripts/train-analyzer.ts). It is never halved, tuned on or reported as accuracy of a
 * tuned judge, and no record in it is in the tuning or held-out halves (a test checks).
 */
export function calibrationSet(): HandLabel[] {
  return readLabels('calibration')
}

/** The Lund records labelled a second time, independently, by the other editor; paired with the first labels. */
export function lundAgreement(): { first: HandLabel; second: HandLabel }[] {
  const first = new Map(readLabels('lund-autophagy').map((l) => [l.id, l]))
  return readLabels('agreement-lund').map((second) => {
    const f = first.get(second.id)
    if (!f) throw new Error(`agreement-lund.json: ${second.id} is not in lund-autophagy.json`)
    return { first: f, second }
  })
}

export const relevanceBand = (relevance: number) => (relevance < 1 ? '<1' : relevance < 2 ? '1-2' : '2+')
