/**
 * The consistency check: the analyzer against labels made by MeSH rules (LABELLING.md) on real Europe PMC
 * records. Not the headline evaluation (the hand-judged set is); it shows how faithfully the analyzer turns
 * indexing into the contract's vocabularies. Its disagreements are not listed: the records are kept for
 * independent checks and nothing is tuned on them.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { analyzePaper } from '../../../src/pipeline/analysis/builtin'
import { relevanceBand } from '../hand-labelled'
import type { Calibration, Pairs } from '../evaluate'
import { recordsOf, withoutMesh } from '../records'
import { CONSISTENCY_FILES } from './files'

type Label = { id: string; study_type: string; topic: string; relevance_band: string }
export type Consistency = {
  studyType: Pairs
  topic: Pairs
  band: Pairs
  calibration: Record<'studyType' | 'topic' | 'band', Calibration>
}

export function consistency(options: { noMesh?: boolean } = {}): Consistency {
  const labels = (
    JSON.parse(readFileSync(fileURLToPath(new URL('./labelled-set.json', import.meta.url)), 'utf8')) as {
      papers: Label[]
    }
  ).papers
  const find = (id: string) => CONSISTENCY_FILES.map((f) => recordsOf(f).get(id)).find(Boolean)
  const out: Consistency = { studyType: [], topic: [], band: [], calibration: { studyType: [], topic: [], band: [] } }
  for (const label of labels) {
    const record = find(label.id)
    if (!record) throw new Error(`labelled paper ${label.id} is not in the fixtures`)
    const { judgement: j } = analyzePaper(options.noMesh ? withoutMesh(record) : record)
    out.studyType.push([label.study_type, j.studyType])
    out.topic.push([label.topic, j.topic])
    out.band.push([label.relevance_band, relevanceBand(j.relevance)])
    out.calibration.studyType.push({ confidence: j.studyTypeConfidence, correct: label.study_type === j.studyType })
    out.calibration.topic.push({ confidence: j.topicConfidence, correct: label.topic === j.topic })
    out.calibration.band.push({
      confidence: j.relevanceConfidence,
      correct: label.relevance_band === relevanceBand(j.relevance),
    })
  }
  return out
}
