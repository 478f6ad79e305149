/** Runs the built-in analyzer over the labelled set; returns (label, analyzer) pairs per measure. */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { analyzePaper } from '../../src/analysis/builtin'
import { readRecords, toPaperInput } from './europepmc-records'

type Label = { id: string; study_type: string; topic: string; relevance_band: string }
export type Pairs = [label: string, analyzer: string][]
/** Per measure, the analyzer's confidence beside whether it was right: do confident answers deserve it? */
export type Calibration = { confidence: number; correct: boolean }[]
export type Evaluation = { studyType: Pairs; topic: Pairs; relevance: Pairs; errors: string[]; calibration: Record<'studyType' | 'topic' | 'relevance', Calibration> }

export const band = (relevance: number) => (relevance < 1 ? '<1' : relevance < 2 ? '1-2' : '2+')
export const accuracy = (pairs: Pairs) => pairs.filter(([a, b]) => a === b).length / pairs.length

export function evaluate(options: { noMesh?: boolean } = {}): Evaluation {
  const labels = (JSON.parse(readFileSync(fileURLToPath(new URL('./labelled-set.json', import.meta.url)), 'utf8')) as { papers: Label[] }).papers
  const records = readRecords()
  const out: Evaluation = { studyType: [], topic: [], relevance: [], errors: [], calibration: { studyType: [], topic: [], relevance: [] } }
  for (const label of labels) {
    const record = records.get(label.id)
    if (!record) throw new Error(`labelled paper ${label.id} is not in the fixtures`)
    const input = toPaperInput(record)
    if (options.noMesh) input.meshHeadings = []
    const { judgement } = analyzePaper(input)
    const rows: [string, Pairs, string, string][] = [
      ['study', out.studyType, label.study_type, judgement.studyType],
      ['topic', out.topic, label.topic, judgement.topic],
      ['band', out.relevance, label.relevance_band, band(judgement.relevance)],
    ]
    out.calibration.studyType.push({ confidence: judgement.studyTypeConfidence, correct: label.study_type === judgement.studyType })
    out.calibration.topic.push({ confidence: judgement.topicConfidence, correct: label.topic === judgement.topic })
    out.calibration.relevance.push({ confidence: judgement.relevanceConfidence, correct: label.relevance_band === band(judgement.relevance) })
    for (const [what, pairs, l, p] of rows) {
      pairs.push([l, p])
      if (l !== p) out.errors.push(`${label.id} ${what}: label ${l}, analyzer ${p} — ${input.title.slice(0, 90)}`)
    }
  }
  return out
}
