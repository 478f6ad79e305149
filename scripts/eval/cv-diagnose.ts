/**
 * Where the analyzer goes wrong, read by cross-validation WITHIN THE TUNING HALF (never the held-out half): 5 folds by
 * id (scripts/eval/evaluate.ts); for each fold the stacked study-type and relevance models are trained on the other
 * four, and every record of the fold is judged as in service (rules' relevance and topic, the gated study type).
 *
 *   bun scripts/eval/cv-diagnose.ts              the study-type confusion matrix (with MeSH and withheld), then every
 *                                                study-type error and every error at relevance ≥ 2, with the editor's
 *                                                rationale, the rules' answer and confidence, the relevance rule
 *   bun scripts/eval/cv-diagnose.ts --summary    the matrices and per-rule counts only
 *
 * The calibration set (scripts/eval/hand-labelled/calibration.json) is judged by the models trained on the whole
 * tuning half and reported beside it, per relevance rule (its records may calibrate, never tune).
 */
import { readPaper } from '../../src/pipeline/analysis/builtin/reading'
import { relevanceFrom } from '../../src/pipeline/analysis/learned/judge'
import { chooseStudyType, modelReads } from '../../src/pipeline/analysis/learned/shipped'
import { probabilities } from '../../src/pipeline/analysis/learned/softmax'
import { STUDY_TYPES } from '../../src/taxonomy'
import {
  featuresOf,
  prepare,
  SHIPPED,
  shippedOffset,
  trainModel,
  TRUST_RULES_FROM,
  type Prepared,
} from '../train-analyzer'
import { foldOf, FOLDS } from './evaluate'
import { calibrationSet, handLabelled, relevanceBand, type HandLabel } from './hand-labelled'
import { recordsOf } from './records'

const summary = process.argv.includes('--summary')
const tuning = prepare(handLabelled().filter((l) => l.half === 'tuning'))
const calibration = prepare(calibrationSet())

type Row = {
  label: HandLabel
  mesh: boolean
  studyType: string
  ruleType: string
  ruleConfidence: number
  modelP: number | null
  relevance: number
  rule: string
  learnedBand: number[]
}
const rows: Row[] = []
const calRows: Row[] = []

function judgeAll(
  records: Prepared<HandLabel>[],
  modelFor: (id: string) => { st: ReturnType<typeof trainModel>; rel: ReturnType<typeof trainModel> },
  out: Row[],
) {
  for (const r of records) {
    const m = modelFor(r.label.id)
    for (const v of r.variants) {
      const read = modelReads(v.rules, v.hasAbstract, TRUST_RULES_FROM)
      const p = read ? probabilities(m.st, featuresOf(v, SHIPPED), shippedOffset(v)) : null
      const chosen = chooseStudyType(p, v.rules)
      const levels = probabilities(m.rel, featuresOf(v, SHIPPED), v.offsets.relevance)
      out.push({
        label: r.label,
        mesh: v.mesh,
        studyType: chosen.studyType,
        ruleType: v.rules.studyType,
        ruleConfidence: v.rules.studyTypeConfidence,
        modelP: p ? Math.max(...p) : null,
        relevance: relevanceFrom(v.rules.relevanceLevels).relevance,
        rule: v.rules.relevanceRule,
        learnedBand: [levels[0], levels[1], levels[2] + levels[3]],
      })
    }
  }
}

const folds = Array.from({ length: FOLDS }, (_, k) => {
  const trainOn = tuning.filter((r) => foldOf(r.label.id) !== k)
  console.error(`fold ${k + 1} of ${FOLDS}`)
  return { st: trainModel(trainOn, SHIPPED, 'studyType'), rel: trainModel(trainOn, SHIPPED, 'relevance') }
})
judgeAll(tuning, (id) => folds[foldOf(id)], rows)
const whole = { st: trainModel(tuning, SHIPPED, 'studyType'), rel: trainModel(tuning, SHIPPED, 'relevance') }
judgeAll(calibration, () => whole, calRows)

const pct = (a: number, b: number) => `${a} / ${b} = ${((100 * a) / b).toFixed(1)}%`
for (const mesh of [true, false]) {
  const rs = rows.filter((r) => r.mesh === mesh)
  console.log(
    `\n### Study type, tuning half out of fold, ${mesh ? 'with MeSH' : 'MeSH withheld'}: ${pct(rs.filter((r) => r.studyType === r.label.study_type).length, rs.length)}\n`,
  )
  console.log(`| editor \\ analyzer | ${STUDY_TYPES.join(' | ')} |`)
  console.log(`|---|${STUDY_TYPES.map(() => '---:').join('|')}|`)
  for (const a of STUDY_TYPES)
    console.log(
      `| ${a} | ${STUDY_TYPES.map((b) => rs.filter((r) => r.label.study_type === a && r.studyType === b).length || '·').join(' | ')} |`,
    )
}

// Per relevance rule: papers, and editors' bands, on the tuning half and the calibration set (with MeSH).
console.log("\n### Relevance rules: editors' bands (<1 / 1-2 / 2+), with MeSH\n")
console.log('| rule | tuning half | calibration set |')
console.log('|---|---|---|')
const bands = (rs: Row[], rule: string) => {
  const of = rs.filter((r) => r.mesh && r.rule === rule)
  return of.length
    ? ['<1', '1-2', '2+'].map((b) => of.filter((r) => relevanceBand(r.label.relevance) === b).length).join(' / ')
    : '–'
}
for (const rule of [...new Set([...rows, ...calRows].map((r) => r.rule))].sort())
  console.log(`| ${rule} | ${bands(rows, rule)} | ${bands(calRows, rule)} |`)

const tp = rows.filter((r) => r.mesh && r.relevance >= 2 && r.label.relevance >= 2).length
const fp = rows.filter((r) => r.mesh && r.relevance >= 2 && r.label.relevance < 2)
const fn = rows.filter((r) => r.mesh && r.relevance < 2 && r.label.relevance >= 2)
console.log(
  `\nRelevance ≥ 2, tuning half, with MeSH: ${tp} right, ${fp.length} false positives, ${fn.length} false negatives`,
)

if (!summary) {
  const show = (r: Row) => {
    const rec = recordsOf(r.label.file).get(r.label.id)!
    const reading = readPaper(rec)
    return `${r.label.id} (${r.label.file.split('/').at(-2) ?? r.label.file}) ${rec.title.slice(0, 140)}\n    types: ${rec.publicationTypes.join('; ') || '–'}; rules ${r.ruleType} ${r.ruleConfidence}${r.modelP === null ? '' : `, model ${r.modelP.toFixed(2)}`}; relevance ${r.relevance} by "${r.rule}"\n    aim: ${reading.parts
      .filter((p) => p.role === 'aim')
      .map((p) => p.text)
      .join(' ')
      .slice(0, 200)}\n    editor: ${r.label.relevance}/${r.label.study_type}/${r.label.topic}: ${r.label.rationale}`
  }
  console.log('\n### Study-type errors, with MeSH (editor -> analyzer)\n')
  const errors = rows.filter((r) => r.mesh && r.studyType !== r.label.study_type)
  errors.sort((a, b) => `${a.label.study_type}>${a.studyType}`.localeCompare(`${b.label.study_type}>${b.studyType}`))
  let group = ''
  for (const r of errors) {
    const g = `${r.label.study_type} -> ${r.studyType}`
    if (g !== group)
      console.log(
        `\n#### ${(group = g)} (${errors.filter((e) => `${e.label.study_type} -> ${e.studyType}` === g).length})`,
      )
    console.log(show(r))
  }
  console.log('\n### False positives at relevance ≥ 2, with MeSH\n')
  for (const r of fp) console.log(show(r))
  console.log('\n### False negatives at relevance ≥ 2, with MeSH\n')
  for (const r of fn) console.log(show(r))
}
