/** Markdown for the evaluation: figure tables, confusion matrices, calibration, agreement between editors. */
import { accuracy, precision, recall, type Calibration, type Pairs, type Scores } from './evaluate'

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '–')
const fraction = (pairs: Pairs) =>
  `${pairs.filter(([a, b]) => a === b).length} / ${pairs.length} = ${pct(accuracy(pairs))}`

export function matrix(name: string, pairs: Pairs, order?: readonly string[]): string[] {
  const seen = new Set(pairs.flat())
  const classes = order ? order.filter((c) => seen.has(c)) : [...seen].sort()
  const count = (l: string, p: string) => pairs.filter(([a, b]) => a === l && b === p).length
  return [
    `#### ${name}: ${fraction(pairs)}`,
    '',
    `| editor \\ analyzer | ${classes.join(' | ')} |`,
    `|---|${classes.map(() => '---:').join('|')}|`,
    ...classes.map((l) => `| ${l} | ${classes.map((p) => count(l, p) || '·').join(' | ')} |`),
    '',
  ]
}

const TARGETS = { studyType: 0.9, band: 0.85, topic: 0.85, precision: 0.85, recall: 0.85 }
const mark = (x: number, target: number) => (x >= target ? '' : ' ✗')

/** The issue's measures side by side, with MeSH and with MeSH withheld. */
export function figures(withMesh: Scores, noMesh: Scores): string[] {
  const pr = (s: Scores, f: typeof precision, target: number) => {
    const p = s.positives
    const denominator = f === precision ? p.truePositive + p.falsePositive : p.truePositive + p.falseNegative
    return `${p.truePositive} / ${denominator} = ${pct(f(p))}${mark(f(p), target)}`
  }
  const acc = (pairs: Pairs, target?: number) =>
    `${fraction(pairs)}${target === undefined ? '' : mark(accuracy(pairs), target)}`
  return [
    '| measure | target | with MeSH | MeSH withheld |',
    '|---|---|---|---|',
    `| study type | ≥ 90% | ${acc(withMesh.studyType, TARGETS.studyType)} | ${acc(noMesh.studyType, TARGETS.studyType)} |`,
    `| relevance band (<1, 1–2, 2+) | ≥ 85% | ${acc(withMesh.band, TARGETS.band)} | ${acc(noMesh.band, TARGETS.band)} |`,
    `| topic, papers of relevance ≥ 1 | ≥ 85% | ${acc(withMesh.topic, TARGETS.topic)} | ${acc(noMesh.topic, TARGETS.topic)} |`,
    `| precision at relevance ≥ 2 | ≥ 85% | ${pr(withMesh, precision, TARGETS.precision)} | ${pr(noMesh, precision, TARGETS.precision)} |`,
    `| recall at relevance ≥ 2 | ≥ 85% | ${pr(withMesh, recall, TARGETS.recall)} | ${pr(noMesh, recall, TARGETS.recall)} |`,
    `| newsworthiness (exact) | – | ${acc(withMesh.newsworthiness)} | ${acc(noMesh.newsworthiness)} |`,
    '',
  ]
}

const CUTS = [0, 0.5, 0.7, 0.85, 1.01]

/** Accuracy of the answers in each confidence bucket: a confidence means something when accuracy rises with it. */
export function calibration(rows: [string, Calibration][]): string[] {
  const cell = (list: Calibration) =>
    list.length ? `${pct(list.filter((r) => r.correct).length / list.length)} of ${list.length}` : '–'
  const buckets = CUTS.slice(0, -1).map((low, i) => [low, CUTS[i + 1]] as const)
  return [
    `| measure | ${buckets.map(([a, b]) => (b > 1 ? `≥ ${a}` : `${a}–${b}`)).join(' | ')} |`,
    `|---|${buckets.map(() => '---').join('|')}|`,
    ...rows.map(
      ([name, list]) =>
        `| ${name} | ${buckets.map(([a, b]) => cell(list.filter((r) => r.confidence >= a && r.confidence < b))).join(' | ')} |`,
    ),
    '',
  ]
}

/** Cohen's kappa: agreement beyond what the two label distributions would give by chance. */
export function kappa(pairs: Pairs): number {
  const n = pairs.length
  const observed = pairs.filter(([a, b]) => a === b).length / n
  const classes = new Set(pairs.flat())
  let expected = 0
  for (const c of classes)
    expected += (pairs.filter(([a]) => a === c).length / n) * (pairs.filter(([, b]) => b === c).length / n)
  return expected === 1 ? 1 : (observed - expected) / (1 - expected)
}

export function agreementTable(rows: [string, Pairs][]): string[] {
  return [
    "| measure | agreement | Cohen's kappa |",
    '|---|---|---|',
    ...rows.map(([name, pairs]) => `| ${name} | ${fraction(pairs)} | ${kappa(pairs).toFixed(2)} |`),
    '',
  ]
}
