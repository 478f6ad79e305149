/**
 * Study type from the strongest evidence available: publication types, then MeSH check tags and
 * headings (what the indexers saw in the full paper), then words of the title and abstract. Each
 * source adds to a score per type; the confidence is the winner's share, shrunk when only the
 * text spoke, so 0.9 means "the indexers said so" and 0.5 means "a word in the abstract hinted".
 */
import type { StudyType } from '../../taxonomy'
import type { PaperInput } from '../types'

type Scores = Record<StudyType, number>

const REVIEW_TYPES = ['review', 'systematic review', 'meta-analysis', 'review-article', 'scoping review']
const TRIAL_TYPES = ['randomized controlled trial', 'controlled clinical trial', 'pragmatic clinical trial', 'clinical trial']
const INVERTEBRATE_MESH = /^(Caenorhabditis|Drosophila|Saccharomyces|Schizosaccharomyces|Yeasts|Nematoda|Insecta)/
const ANIMAL_MESH = /^(Mice|Rats|Dogs|Cats|Swine|Macaca|Primates|Zebrafish|Killifishes|Mole Rats|Rabbits|Sheep|Cattle|Cricetinae|Disease Models, Animal|Xenograft Model Antitumor Assays|Mice, Transgenic|Mice, Knockout|Horses|Chickens)/
const CELL_MESH = /^(Cell Line|Cells, Cultured|Primary Cell Culture|Organoids|.*\d.* Cells$|HeLa Cells)/
const COMPUTATIONAL_MESH = /^(Computational Biology|Computer Simulation|Machine Learning|Deep Learning|Algorithms|Software|Models, Theoretical|Databases, Genetic|Neural Networks, Computer|Mendelian Randomization Analysis)/
const OBSERVATIONAL_MESH = /^(Cohort Studies|Cross-Sectional Studies|Case-Control Studies|Prospective Studies|Retrospective Studies|Longitudinal Studies|Follow-Up Studies|Surveys and Questionnaires|Risk Factors)/

const TEXT_CUES: [StudyType, RegExp, number][] = [
  ['review', /\b(this|our|we) (review|summari[sz]e|discuss)|\breview (of|the|current|recent)|systematic review|meta-analys[ie]s|\bnarrative review|\bin this review\b|\boverview of\b/i, 2.5],
  ['human_trial', /\brandomi[sz]ed\b|placebo|double-blind|\bphase (i{1,3}|[123])\b.{0,20}trial|clinical trial|\btrial participants\b/i, 2.5],
  ['invertebrate', /\b(c\. ?elegans|caenorhabditis|drosophila|fruit fl(y|ies)|yeast|nematodes?|worms)\b/i, 2],
  ['animal', /\b(mice|mouse|murine|rats?|rodents?|zebrafish|killifish|primates?|monkeys?|macaques?|dogs|canine|xenograft|in vivo)\b/i, 1.5],
  ['cells', /\b(cell lines?|in vitro|cultured|fibroblasts|organoids?|hela|hek-?293|ipscs?|cells were (treated|transfected|exposed))\b/i, 1.2],
  // Bench methods: work on cells unless an organism cue says otherwise.
  ['cells', /\b(sirna|shrna|knock-?down|overexpress\w*|transfect\w*|western blot\w*|qpcr|rt-qpcr|immunofluorescence|flow cytometry|(?:cancer|tumou?r|stem|hela|epithelial|endothelial) cells)\b/i, 0.6],
  ['computational', /\b(machine learning|deep learning|in silico|computational (model|analysis|framework)|bioinformatic|simulation|algorithm|neural network|mendelian randomi[sz]ation|transcriptomic data ?sets?|publicly available data)/i, 1.2],
  ['human_observational', /\b(cohort|participants|patients|cross-sectional|case-control|population-based|biobank|retrospective|prospective|survey|questionnaire|older adults|individuals aged|men and women|registry|interviews?|qualitative study|focus groups?|children|women|mothers)\b/i, 1.2],
]

export type StudyTypeResult = { studyType: StudyType; confidence: number; organismHint: string | null }

/** Where several sources agree the confidence is high; ties go to the first type in this order. */
const ORDER: StudyType[] = ['review', 'human_trial', 'invertebrate', 'animal', 'cells', 'computational', 'human_observational', 'other']

export function classifyStudyType(paper: PaperInput, text: string): StudyTypeResult {
  const s: Scores = { human_trial: 0, human_observational: 0, animal: 0, invertebrate: 0, cells: 0, computational: 0, review: 0, other: 0.3 }
  const types = paper.publicationTypes.map((t) => t.toLowerCase())
  let structured = 0
  if (types.some((t) => REVIEW_TYPES.includes(t))) { s.review += 10; structured++ }
  if (types.some((t) => TRIAL_TYPES.includes(t) || t.startsWith('clinical trial,'))) { s.human_trial += 8; structured++ }
  if (types.some((t) => ['editorial', 'comment', 'letter', 'news', 'interview', 'published erratum'].includes(t))) s.other += 3
  const mesh = paper.meshHeadings.map((h) => h.descriptor)
  let humans = false
  for (const h of mesh) {
    if (h === 'Humans') humans = true
    else if (INVERTEBRATE_MESH.test(h)) s.invertebrate += 6
    else if (ANIMAL_MESH.test(h)) s.animal += 5
    else if (CELL_MESH.test(h)) s.cells += 4
    else if (COMPUTATIONAL_MESH.test(h)) s.computational += 4
    else if (OBSERVATIONAL_MESH.test(h)) s.human_observational += 1.5
  }
  if (mesh.length > 0) {
    structured++
    if (humans) s.human_observational += 3
    // Indexers tag cell-line and computational work with Humans too; the specific tag decides.
    if (s.computational > 0 && mesh.includes('Animals')) s.computational = 0
  }
  for (const [type, cue, weight] of TEXT_CUES) {
    const hits = text.match(new RegExp(cue.source, 'gi'))?.length ?? 0
    if (hits) s[type] += weight * Math.min(hits, 3) * (structured ? 0.3 : 1)
  }
  // Papers that pair cell work with experiments in animals are animal studies: the in vivo part is the stronger design.
  if (!structured && s.animal > 0 && s.cells > 0) s.animal += s.cells
  // A clinical-trial cue in text without any human signal is usually a mention of other trials.
  if (!structured && s.human_trial > 0 && s.animal > s.human_trial) s.human_trial *= 0.5
  let best: StudyType = 'other'
  for (const type of ORDER) if (s[type] > s[best] + 1e-9) best = type
  const total = ORDER.reduce((sum, t) => sum + s[t], 0)
  const share = s[best] / total
  // Without structured evidence, a few weak cues should not sound certain.
  const strength = Math.max(0.2, Math.min(1, (total - 0.3) / 2))
  const confidence = structured ? 0.55 + 0.43 * share : 0.25 + 0.5 * share * strength
  return { studyType: best, confidence: round(confidence), organismHint: null }
}

export const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits
