/**
 * Scores the built-in analyzer against the labelled set (scripts/eval/labelled-set.json, rules in
 * scripts/eval/LABELLING.md) built from real Europe PMC records in ../shared/fixtures.
 *
 *   bun scripts/eval-analysis.ts            # full records, as the harvester stores them
 *   bun scripts/eval-analysis.ts --no-mesh  # the same records with MeSH headings withheld (a harder check)
 *
 * Prints accuracy and confusion matrices (rows: label, columns: analyzer) as Markdown.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { analyzePaper } from '../src/analysis/builtin'
import { haveFixtures, readRecords, toPaperInput } from './eval/europepmc-records'

type Label = { id: string; study_type: string; topic: string; relevance_band: string }

export function band(relevance: number): string {
  return relevance < 1 ? '<1' : relevance < 2 ? '1-2' : '2+'
}

function matrix(name: string, pairs: [string, string][]): string[] {
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

if (import.meta.main) {
  if (!haveFixtures) {
    console.log('eval-analysis: ../shared/fixtures is missing; nothing to evaluate')
    process.exit(0)
  }
  const noMesh = process.argv.includes('--no-mesh')
  const labels = (JSON.parse(readFileSync(fileURLToPath(new URL('./eval/labelled-set.json', import.meta.url)), 'utf8')) as { papers: Label[] }).papers
  const records = readRecords()
  const study: [string, string][] = []
  const topic: [string, string][] = []
  const relevance: [string, string][] = []
  for (const label of labels) {
    const record = records.get(label.id)
    if (!record) throw new Error(`labelled paper ${label.id} is not in the fixtures`)
    const input = toPaperInput(record)
    if (noMesh) input.meshHeadings = []
    const { judgement } = analyzePaper(input)
    study.push([label.study_type, judgement.studyType])
    topic.push([label.topic, judgement.topic])
    relevance.push([label.relevance_band, band(judgement.relevance)])
    if (process.argv.includes('--errors')) {
      for (const [what, l, p] of [['study', label.study_type, judgement.studyType], ['topic', label.topic, judgement.topic], ['band', label.relevance_band, band(judgement.relevance)]]) {
        if (l !== p) console.error(`${label.id} ${what}: label ${l}, analyzer ${p} — ${input.title.slice(0, 90)}`)
      }
    }
  }
  console.log([`## ${labels.length} labelled papers${noMesh ? ', MeSH withheld' : ''}`, '', ...matrix('Study type', study), ...matrix('Topic', topic), ...matrix('Relevance band', relevance)].join('\n'))
}
