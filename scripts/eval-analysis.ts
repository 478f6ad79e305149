/**
 * Scores the built-in analyzer against the labelled set (scripts/eval/labelled-set.json, rules in
 * scripts/eval/LABELLING.md) built from real Europe PMC records in ../shared/fixtures.
 *
 *   bun scripts/eval-analysis.ts            # full records, as the harvester stores them
 *   bun scripts/eval-analysis.ts --no-mesh  # the same records with MeSH headings withheld (a harder check)
 *   bun scripts/eval-analysis.ts --errors   # also list every disagreement on stderr
 *
 * Prints accuracy and confusion matrices (rows: label, columns: analyzer) as Markdown.
 */
import { haveFixtures } from './eval/europepmc-records'
import { evaluate, type Calibration, type Pairs } from './eval/evaluate'

/** Accuracy of the answers given with confidence below and at or above each cut. */
function calibration(name: string, rows: Calibration): string {
  const cell = (list: Calibration) => (list.length ? `${((100 * list.filter((r) => r.correct).length) / list.length).toFixed(0)}% of ${list.length}` : '–')
  return `| ${name} | ${[0.6, 0.8].map((cut) => `${cell(rows.filter((r) => r.confidence < cut))} | ${cell(rows.filter((r) => r.confidence >= cut))}`).join(' | ')} |`
}

function matrix(name: string, pairs: Pairs): string[] {
  const classes = [...new Set(pairs.flat())].sort()
  const count = (l: string, p: string) => pairs.filter(([a, b]) => a === l && b === p).length
  const correct = pairs.filter(([a, b]) => a === b).length
  return [
    `### ${name}: ${correct} / ${pairs.length} = ${((100 * correct) / pairs.length).toFixed(1)}%`,
    '',
    `| label \\ analyzer | ${classes.join(' | ')} |`,
    `|---|${classes.map(() => '---:').join('|')}|`,
    ...classes.map((l) => `| ${l} | ${classes.map((p) => count(l, p) || '·').join(' | ')} |`),
    '',
  ]
}

if (!haveFixtures) {
  console.log('eval-analysis: ../shared/fixtures is missing; nothing to evaluate')
  process.exit(0)
}
const noMesh = process.argv.includes('--no-mesh')
const result = evaluate({ noMesh })
if (process.argv.includes('--errors')) for (const e of result.errors) console.error(e)
console.log([
  `## ${result.studyType.length} labelled papers${noMesh ? ', MeSH withheld' : ''}`, '',
  ...matrix('Study type', result.studyType), ...matrix('Topic', result.topic), ...matrix('Relevance band (<1, 1-2, 2+)', result.relevance),
  '### Accuracy by confidence', '',
  '| measure | confidence < 0.6 | ≥ 0.6 | < 0.8 | ≥ 0.8 |', '|---|---|---|---|---|',
  calibration('study type', result.calibration.studyType), calibration('topic', result.calibration.topic), calibration('relevance band', result.calibration.relevance), '',
].join('\n'))
