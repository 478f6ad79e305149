/**
 * Reliability of the built-in analyzer's three confidences on the HELD-OUT half of the hand-judged set: per
 * confidence decile, the mean confidence given and the share of answers the editors agreed with (study type; the
 * relevance band; topic for papers of relevance 1 or more), with MeSH and with MeSH withheld pooled. A decile
 * holding 20 or more answers is calibrated when the two are within 10 points (issue 34's target).
 *
 *   bun scripts/eval/reliability.ts           prints the table and writes docs/reliability.svg (vega-lite)
 *   bun scripts/eval/reliability.ts --tuning  the same on the tuning half, for work in progress (writes nothing)
 *
 * The held-out half is for reports, never for tuning: the calibration maps are fitted on the tuning half and the
 * calibration set (scripts/train-analyzer.ts, CALIBRATE_ON; the design chosen by scripts/eval/calibration-designs.ts).
 * Under the table: each measure's expected calibration error, the gap between confidence and share right averaged
 * over deciles weighted by answers.
 */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as vega from 'vega'
import { compile as compileLite } from 'vega-lite'
import { handLabelled } from './hand-labelled'
import { calibrationError, deciles } from './deciles'
import { judge, score } from './evaluate'

const tuning = process.argv.includes('--tuning')
const labels = handLabelled().filter((l) => l.half === (tuning ? 'tuning' : 'held-out'))
const scored = [score(judge(labels)), score(judge(labels, { noMesh: true }))]
const MEASURES = { studyType: 'study type', band: 'relevance band', topic: 'topic (relevance ≥ 1)' } as const

const rows = (Object.keys(MEASURES) as (keyof typeof MEASURES)[]).flatMap((key) =>
  deciles(
    MEASURES[key],
    scored.flatMap((s) => s.calibration[key]),
  ),
)
const pct = (x: number) => `${(100 * x).toFixed(1)}%`
console.log(
  `## Reliability on the ${tuning ? 'tuning' : 'held-out'} half (${labels.length} records, with MeSH and withheld pooled)\n`,
)
console.log('| measure | decile | answers | mean confidence | editors agree | within 10 points |')
console.log('|---|---|---:|---:|---:|---|')
for (const r of rows)
  console.log(
    `| ${r.measure} | ${r.decile} | ${r.n} | ${pct(r.confidence)} | ${pct(r.accuracy)} | ${r.calibrated === null ? '(under 20)' : r.calibrated ? 'yes' : 'NO'} |`,
  )
for (const measure of new Set(rows.map((r) => r.measure))) {
  const gap = calibrationError(rows.filter((r) => r.measure === measure))
  console.log(`\nexpected calibration error, ${measure}: ${(100 * gap).toFixed(1)} points`)
}

if (!tuning) {
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: `Reliability of the built-in analyzer's confidences (held-out half, ${labels.length} records, with and without MeSH)`,
    data: { values: rows.map((r) => ({ ...r, enough: r.n >= 20 ? '20 or more answers' : 'under 20 answers' })) },
    facet: { column: { field: 'measure', type: 'nominal', title: null, sort: Object.values(MEASURES) } },
    spec: {
      width: 220,
      height: 220,
      layer: [
        {
          data: {
            values: [
              { x: 0, y: 0 },
              { x: 1, y: 1 },
            ],
          },
          mark: { type: 'line', color: '#999', strokeDash: [4, 4] },
          encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } },
        },
        {
          mark: { type: 'line', point: false, color: '#1f5f8b' },
          encoding: {
            x: { field: 'confidence', type: 'quantitative' },
            y: { field: 'accuracy', type: 'quantitative' },
          },
        },
        {
          mark: { type: 'point', filled: true, color: '#1f5f8b', opacity: 0.85 },
          encoding: {
            x: {
              field: 'confidence',
              type: 'quantitative',
              title: 'mean confidence in the decile',
              scale: { domain: [0, 1] },
            },
            y: {
              field: 'accuracy',
              type: 'quantitative',
              title: 'share the editors agreed with',
              scale: { domain: [0, 1] },
            },
            size: { field: 'n', type: 'quantitative', title: 'answers', scale: { type: 'sqrt', range: [20, 600] } },
            shape: { field: 'enough', type: 'nominal', title: null },
          },
        },
      ],
    },
  }
  const view = new vega.View(vega.parse(compileLite(spec as never).spec), { renderer: 'none' })
  const svg = await view.toSVG()
  const out = fileURLToPath(new URL('../../docs/reliability.svg', import.meta.url))
  writeFileSync(out, `${svg}\n`)
  console.log(`\nwrote ${out}`)
}
