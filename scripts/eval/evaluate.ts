/**
 * Runs the built-in analyzer over hand-judged records and scores it by the measures: study type,
 * relevance band, topic on papers of relevance 1 or more, newsworthiness, and precision and recall at the
 * service's default threshold (relevance 2). Records are read from ../shared at run time.
 */
import { createHash } from 'node:crypto'
import { analyzePaper } from '../../src/pipeline/analysis/builtin'
import { readPaper } from '../../src/pipeline/analysis/builtin/reading'
import { judgeRelevance } from '../../src/pipeline/analysis/builtin/relevance'
import type { Judgement } from '../../src/pipeline/analysis/types'
import { relevanceBand, type SplitLabel } from './hand-labelled'
import { recordsOf, withoutMesh } from './records'

export type Pairs = [label: string, analyzer: string][]
/** The analyzer's confidence beside whether it was right: do confident answers deserve it? */
export type Calibration = { confidence: number; correct: boolean }[]
export type Outcome = { label: SplitLabel; title: string; judgement: Judgement }

export const accuracy = (pairs: Pairs) => (pairs.length ? pairs.filter(([a, b]) => a === b).length / pairs.length : NaN)

/** The default threshold of the service (docs/contract-decisions.md): relevance 2 and up is about ageing biology. */
export const THRESHOLD = 2

export function judge(labels: SplitLabel[], options: { noMesh?: boolean } = {}): Outcome[] {
  return labels.map((label) => {
    const record = recordsOf(label.file).get(label.id)
    if (!record) throw new Error(`hand-labelled paper ${label.id} is not in ${label.file}`)
    const input = options.noMesh ? withoutMesh(record) : record
    return { label, title: record.title, judgement: analyzePaper(input).judgement }
  })
}

export type Scores = {
  n: number
  studyType: Pairs
  band: Pairs
  topic: Pairs // papers whose label is relevance 1 or more
  newsworthiness: Pairs
  /** At relevance >= THRESHOLD, label against analyzer. */
  positives: { truePositive: number; falsePositive: number; falseNegative: number }
  calibration: Record<'studyType' | 'band' | 'topic', Calibration>
}

export function score(outcomes: Outcome[]): Scores {
  const s: Scores = {
    n: outcomes.length,
    studyType: [],
    band: [],
    topic: [],
    newsworthiness: [],
    positives: { truePositive: 0, falsePositive: 0, falseNegative: 0 },
    calibration: { studyType: [], band: [], topic: [] },
  }
  for (const { label, judgement: j } of outcomes) {
    s.studyType.push([label.study_type, j.studyType])
    s.calibration.studyType.push({ confidence: j.studyTypeConfidence, correct: label.study_type === j.studyType })
    const band = relevanceBand(label.relevance)
    s.band.push([band, relevanceBand(j.relevance)])
    s.calibration.band.push({ confidence: j.relevanceConfidence, correct: band === relevanceBand(j.relevance) })
    if (label.relevance >= 1) {
      s.topic.push([label.topic, j.topic])
      s.calibration.topic.push({ confidence: j.topicConfidence, correct: label.topic === j.topic })
    }
    s.newsworthiness.push([String(label.newsworthiness), String(j.newsworthiness)])
    const want = label.relevance >= THRESHOLD
    const got = j.relevance >= THRESHOLD
    if (want && got) s.positives.truePositive++
    else if (got) s.positives.falsePositive++
    else if (want) s.positives.falseNegative++
  }
  return s
}

export const precision = (p: Scores['positives']) => p.truePositive / (p.truePositive + p.falsePositive)
export const recall = (p: Scores['positives']) => p.truePositive / (p.truePositive + p.falseNegative)

/** One line per disagreement, for reading while tuning. */
export function disagreements(outcomes: Outcome[]): string[] {
  const out: string[] = []
  for (const { label: l, title, judgement: j } of outcomes) {
    const wrong: string[] = []
    if (relevanceBand(l.relevance) !== relevanceBand(j.relevance))
      wrong.push(`relevance ${l.relevance} got ${j.relevance}`)
    if (l.study_type !== j.studyType) wrong.push(`study ${l.study_type} got ${j.studyType}`)
    if (l.relevance >= 1 && l.topic !== j.topic) wrong.push(`topic ${l.topic} got ${j.topic}`)
    if (wrong.length) out.push(`${l.id} [${wrong.join('; ')}] ${title.slice(0, 110)}\n    editor: ${l.rationale}`)
  }
  return out
}

/** Folds for cross-validation within the tuning half: fixed by id alone (SHA-256, like the split), never by result. */
export const FOLDS = 5
export const foldOf = (id: string) =>
  parseInt(createHash('sha256').update(`geroscope-eval-fold:${id}`).digest('hex').slice(0, 8), 16) % FOLDS

/** Which relevance rule fired, beside the editor's level: where a rule's mass sits, across papers. */
export function relevanceRules(labels: SplitLabel[], options: { noMesh?: boolean } = {}): Map<string, number[]> {
  const out = new Map<string, number[]>()
  for (const label of labels) {
    const record = recordsOf(label.file).get(label.id)!
    const input = options.noMesh ? withoutMesh(record) : record
    const { rule } = judgeRelevance(input, readPaper(input), analyzePaper(input).judgement.studyType === 'review')
    const row = out.get(rule) ?? [0, 0, 0, 0]
    row[label.relevance]++
    out.set(rule, row)
  }
  return out
}
