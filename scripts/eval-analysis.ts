/**
 * Scores the built-in analyzer against the hand-judged set (scripts/eval/hand-labelled/, labelled by editors
 * by docs/judgement-guidelines.md), records read from ../shared/fixtures at run time.
 *
 *   bun scripts/eval-analysis.ts                  held-out figures (the headline), with MeSH and withheld;
 *                                                 the tuning half's figures; the editors' agreement
 *   bun scripts/eval-analysis.ts --tuning         the tuning half only, with its matrices (what to look at while tuning)
 *   bun scripts/eval-analysis.ts --errors         every disagreement on the TUNING half, on stderr, beside the
 *                                                 tuning half's figures (never the held-out ones)
 *                                                 (add --no-mesh for the disagreements with MeSH withheld)
 *   bun scripts/eval-analysis.ts --cv             5-fold cross-validation within the tuning half: each fold's figures
 *                                                 (folds by SHA-256 of id, scripts/eval/evaluate.ts foldOf)
 *   bun scripts/eval-analysis.ts --rules          the tuning half by relevance rule: which rule fired, the editor's levels
 *   --hide-fold N                                 with --errors or --rules: leave fold N out, so a rule written while
 *                                                 reading the other folds is judged on a fold not read
 *   bun scripts/eval-analysis.ts --consistency    the MeSH-rule consistency set instead (scripts/eval/mesh-rules)
 *   bun scripts/eval-analysis.ts --held-out-errors   the held-out disagreements: for the final report only,
 *                                                 never for tuning
 *   bun scripts/eval-analysis.ts --sets a,b [--held-out]   figures and matrices on the named sets alone, both halves
 *                                                 (or the held-out half): a new set scored by the judge as it stood
 *                                                 before the set was trained on is a check on records nobody tuned on
 *
 * Matrices: rows are the editor's label, columns the analyzer's.
 */
import { TOPICS, STUDY_TYPES } from '../src/taxonomy'
import { handLabelled, lundAgreement, relevanceBand, type SplitLabel } from './eval/hand-labelled'
import {
  accuracy,
  disagreements,
  foldOf,
  FOLDS,
  judge,
  precision,
  recall,
  relevanceRules,
  score,
  type Pairs,
  type Scores,
} from './eval/evaluate'
import { consistency } from './eval/mesh-rules/consistency'
import { haveFixtures } from './eval/records'
import { agreementTable, calibration, figures, matrix } from './eval/report'

const BANDS = ['<1', '1-2', '2+']
const has = (flag: string) => process.argv.includes(flag)

function matrices(s: Scores): string[] {
  return [
    ...matrix('Study type', s.studyType, STUDY_TYPES),
    ...matrix('Relevance band', s.band, BANDS),
    ...matrix('Topic, papers of relevance ≥ 1', s.topic, TOPICS),
    ...matrix('Newsworthiness', s.newsworthiness, ['0', '1', '2', '3']),
  ]
}

function calibrationOf(s: Scores, t: Scores): string[] {
  return calibration([
    ['study type, with MeSH', s.calibration.studyType],
    ['study type, withheld', t.calibration.studyType],
    ['relevance band, with MeSH', s.calibration.band],
    ['relevance band, withheld', t.calibration.band],
    ['topic, with MeSH', s.calibration.topic],
    ['topic, withheld', t.calibration.topic],
  ])
}

/** Figures, matrices and accuracy by confidence of `labels`, with MeSH and withheld, under `heading`. */
function report(heading: string, labels: SplitLabel[], confidenceHeading: string): string[] {
  const mesh = score(judge(labels))
  const none = score(judge(labels, { noMesh: true }))
  return [
    `## ${heading} (${labels.length} records)`,
    '',
    ...figures(mesh, none),
    '#### With MeSH',
    '',
    ...matrices(mesh),
    '#### MeSH withheld',
    '',
    ...matrices(none),
    `#### ${confidenceHeading}`,
    '',
    ...calibrationOf(mesh, none),
  ]
}

const tuningOnly = () =>
  report(
    'Tuning half only',
    handLabelled().filter((l) => l.half === 'tuning'),
    'Accuracy by confidence (tuning)',
  )

function handJudged(): string[] {
  const labels = handLabelled()
  const half = (h: SplitLabel['half']) => labels.filter((l) => l.half === h)
  const heldOut = half('held-out')
  const tuning = half('tuning')
  const count = (list: SplitLabel[]) =>
    [0, 1, 2, 3].map((r) => list.filter((l) => l.relevance === r).length).join(' / ')
  const held = { mesh: score(judge(heldOut)), none: score(judge(heldOut, { noMesh: true })) }
  const tune = { mesh: score(judge(tuning)), none: score(judge(tuning, { noMesh: true })) }
  const pairs = lundAgreement()
  const agree = (f: (l: SplitLabel | ReturnType<typeof lundAgreement>[number]['first']) => string): Pairs =>
    pairs.map(({ first, second }) => [f(first), f(second)])
  return [
    `## Hand-judged set: ${labels.length} records, ${heldOut.length} held out, ${tuning.length} for tuning`,
    '',
    `Relevance 0 / 1 / 2 / 3: held out ${count(heldOut)}, tuning ${count(tuning)}. Split rule: scripts/eval/hand-labelled.ts.`,
    'MeSH withheld: the record without its MeSH headings and chemical list, as a preprint or a newly indexed paper arrives.',
    '',
    `### Held-out half (${heldOut.length} records): the headline`,
    '',
    ...figures(held.mesh, held.none),
    '#### With MeSH',
    '',
    ...matrices(held.mesh),
    '#### MeSH withheld',
    '',
    ...matrices(held.none),
    '#### Accuracy by confidence (held-out)',
    '',
    ...calibrationOf(held.mesh, held.none),
    `### Tuning half (${tuning.length} records)`,
    '',
    ...figures(tune.mesh, tune.none),
    '#### Accuracy by confidence (tuning)',
    '',
    ...calibrationOf(tune.mesh, tune.none),
    `### How hard the task is: two editors on the same ${pairs.length} Lund records`,
    '',
    ...agreementTable([
      ['relevance level (0–3)', agree((l) => String(l.relevance))],
      ['relevance band', agree((l) => relevanceBand(l.relevance))],
      ['relevance ≥ 2', agree((l) => String(l.relevance >= 2))],
      ['study type', agree((l) => l.study_type)],
      ['topic', agree((l) => l.topic)],
      ['newsworthiness', agree((l) => String(l.newsworthiness))],
    ]),
  ]
}

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '–')

/** Each fold of the tuning half scored alone, then all folds pooled: how much a figure moves between subsets. */
function crossValidation(): string[] {
  const tuning = handLabelled().filter((l) => l.half === 'tuning')
  const row = (name: string, list: SplitLabel[]) => {
    const cells = [false, true].map((noMesh) => {
      const s = score(judge(list, { noMesh }))
      return [accuracy(s.studyType), accuracy(s.band), accuracy(s.topic), precision(s.positives), recall(s.positives)]
        .map(pct)
        .join(' | ')
    })
    const positives = list.filter((l) => l.relevance >= 2).length
    return `| ${name} | ${list.length} (${positives}) | ${cells.join(' | ')} |`
  }
  return [
    `## ${FOLDS}-fold cross-validation within the tuning half (${tuning.length} records)`,
    '',
    'Columns: study type, relevance band, topic (relevance ≥ 1), precision and recall at relevance ≥ 2; first with MeSH, then withheld. n (relevance ≥ 2).',
    '',
    '| fold | n | study | band | topic | precision | recall | study, no MeSH | band, no MeSH | topic, no MeSH | precision, no MeSH | recall, no MeSH |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...Array.from({ length: FOLDS }, (_, k) =>
      row(
        String(k),
        tuning.filter((l) => foldOf(l.id) === k),
      ),
    ),
    row('pooled', tuning),
    '',
  ]
}

function rulesReport(hidden: number | null): string[] {
  const tuning = handLabelled().filter((l) => l.half === 'tuning' && foldOf(l.id) !== hidden)
  const rows = [...relevanceRules(tuning, { noMesh: has('--no-mesh') })].sort(
    (a, b) => b[1].reduce((x, y) => x + y) - a[1].reduce((x, y) => x + y),
  )
  return [
    `## Relevance rules on the tuning half${hidden === null ? '' : `, fold ${hidden} left out`} (${tuning.length} records): the editor's levels under each rule`,
    '',
    '| rule | 0 | 1 | 2 | 3 |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(([rule, n]) => `| ${rule} | ${n.join(' | ')} |`),
    '',
  ]
}

function consistencyReport(): string[] {
  const full = consistency()
  const none = consistency({ noMesh: true })
  const acc = (p: Pairs) => `${p.filter(([a, b]) => a === b).length} / ${p.length}`
  return [
    `## Consistency check: ${full.studyType.length} Europe PMC records labelled by MeSH rules (scripts/eval/mesh-rules/LABELLING.md)`,
    '',
    'Not the headline: the labels come from the MeSH headings the analyzer also reads. Records kept for independent checks.',
    '',
    ...matrix('Study type', full.studyType, STUDY_TYPES),
    ...matrix('Topic', full.topic, TOPICS),
    ...matrix('Relevance band', full.band, BANDS),
    `MeSH withheld: study type ${acc(none.studyType)}, topic ${acc(none.topic)}, relevance band ${acc(none.band)}.`,
    '',
    ...calibration([
      ['study type', full.calibration.studyType],
      ['topic', full.calibration.topic],
      ['relevance band', full.calibration.band],
    ]),
  ]
}

if (!haveFixtures) {
  console.log('eval-analysis: ../shared/fixtures is missing; nothing to evaluate')
  process.exit(0)
}
const hideAt = process.argv.indexOf('--hide-fold')
const hidden = hideAt > 0 ? Number(process.argv[hideAt + 1]) : null
const setsAlone = (names: string[]) =>
  report(
    `Sets ${names.join(', ')}${has('--held-out') ? ', held-out half' : ', both halves'}`,
    handLabelled().filter((l) => names.includes(l.set) && (!has('--held-out') || l.half === 'held-out')),
    'Accuracy by confidence',
  )

const setsAt = process.argv.indexOf('--sets')
if (setsAt > 0) {
  console.log(setsAlone(process.argv[setsAt + 1].split(',')).join('\n'))
} else if (has('--consistency')) {
  console.log(consistencyReport().join('\n'))
} else if (has('--cv')) {
  console.log(crossValidation().join('\n'))
} else if (has('--rules')) {
  console.log(rulesReport(hidden).join('\n'))
} else {
  // --errors is a tuning tool: it never prints the held-out figures beside the disagreements (round 3 once
  // printed them by leaving out --tuning).
  console.log((has('--tuning') || has('--errors') ? tuningOnly() : handJudged()).join('\n'))
  const noMesh = has('--no-mesh')
  if (has('--errors')) {
    const tuning = handLabelled().filter((l) => l.half === 'tuning' && foldOf(l.id) !== hidden)
    console.error(
      `# Disagreements on the tuning half${hidden === null ? '' : `, fold ${hidden} left out`}${noMesh ? ', MeSH withheld' : ''}\n` +
        disagreements(judge(tuning, { noMesh })).join('\n'),
    )
  }
  if (has('--held-out-errors')) {
    const heldOut = handLabelled().filter((l) => l.half === 'held-out')
    console.error(
      `# Disagreements on the HELD-OUT half${noMesh ? ', MeSH withheld' : ''} (for the final report; never tune on these)\n` +
        disagreements(judge(heldOut, { noMesh })).join('\n'),
    )
  }
}
