/**
 * What the site's charts cost to draw (src/modules/site/charts/): loading vega and vega-lite once,
 * drawing each kind of chart from a specification not seen before (cold), and answering it again
 * from the drawings kept by specification hash (warm), on synthetic numbers of the pages' sizes:
 *   bun scripts/bench-charts.ts [--rounds 20]
 * No database: the queries behind the charts are measured with their pages by scripts/bench-site.ts.
 * Prints p50 and p95 in ms per chart and the load average; rerun on a quiet machine before quoting.
 */
import { loadavg } from 'node:os'
import { NARROW, WIDE } from '../src/modules/site/charts/figure'
import { directions, monthlyStacked, shares, steps } from '../src/modules/site/charts/specs'
import { drawSvg, forgetDrawings } from '../src/modules/site/charts/vega-svg'
import { lastMonths } from '../src/modules/site/charts/site-charts'
import { TOPIC_INFO } from '../src/taxonomy'
import { numberOption } from './bench/wrk'

const rounds = numberOption('rounds', 20)
const months = lastMonths(new Date())
const topics = TOPIC_INFO.map((t) => t.name)

/** Each chart kind with its page's size of data; `salt` changes a number so each round draws a new specification. */
const CHARTS: Record<string, (salt: number) => (width: number) => object> = {
  'home: 24 months x 11 topics': (salt) =>
    monthlyStacked(
      topics.flatMap((group, t) =>
        months.map((month, m) => ({ month, group, papers: ((t + 1) * (m + 3) * 37 + salt) % 400 })),
      ),
      topics,
      'Topic',
    ),
  'topic: 24 months': (salt) =>
    steps(
      months.map((step, m) => ({ step, papers: (m * 53 + salt) % 300 })),
      'Month indexed',
    ),
  'topic: study types': (salt) =>
    shares(
      ['Animal study', 'Human trial', 'Cell study', 'Review', 'Computational', 'Other'].map((label, i) => ({
        label,
        count: (i * 91 + salt) % 500,
      })),
      'Study type',
      'Papers',
    ),
  'entity: 30 years': (salt) =>
    steps(
      Array.from({ length: 30 }, (_, i) => ({ step: String(1996 + i), papers: (i * 17 + salt) % 90 })),
      'Year published',
    ),
  'entity/evidence: 6 organisms x 5 directions': (salt) =>
    directions(
      ['Mus musculus', 'Homo sapiens', 'C. elegans', 'D. melanogaster', 'Rattus', 'Not stated'].flatMap((organism, o) =>
        ['increase', 'decrease', 'no change', 'mixed', 'not stated'].map((direction, d) => ({
          organism,
          direction,
          claims: (o * 7 + d * 3 + salt) % 40,
        })),
      ),
    ),
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]
const time = async (f: () => Promise<unknown>) => {
  const started = performance.now()
  await f()
  return performance.now() - started
}

const before = loadavg()
const load = await time(() => drawSvg(CHARTS['topic: 24 months'](-1)(NARROW))) // includes importing vega and vega-lite
console.log(
  `load average ${before.map((l) => l.toFixed(2)).join(' ')}; first drawing (loads vega and vega-lite): ${load.toFixed(0)} ms`,
)
console.log(
  `\n| chart (both widths) | cold p50 | cold p95 | warm p50 | warm p95 | SVG bytes |\n|---|---|---|---|---|---|`,
)
for (const [name, chart] of Object.entries(CHARTS)) {
  const cold: number[] = []
  const warm: number[] = []
  let bytes = 0
  for (let i = 0; i < rounds; i++) {
    const spec = chart(i)
    forgetDrawings()
    cold.push(
      await time(async () => {
        const svgs = await Promise.all([drawSvg(spec(WIDE)), drawSvg(spec(NARROW))])
        bytes = svgs[0].length + svgs[1].length
      }),
    )
    warm.push(await time(() => Promise.all([drawSvg(spec(WIDE)), drawSvg(spec(NARROW))])))
  }
  const f = (v: number[], p: number) => percentile(v, p).toFixed(p === 0.5 ? 1 : 1)
  console.log(
    `| ${name} | ${f(cold, 0.5)} | ${f(cold, 0.95)} | ${f(warm, 0.5)} | ${f(warm, 0.95)} | ${bytes.toLocaleString('en')} |`,
  )
}
console.log(
  `\nload average after ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
)
