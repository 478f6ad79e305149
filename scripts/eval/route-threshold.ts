/**
 * The held-out curve behind LLM_ROUTE_THRESHOLD (LLM_ROUTE=uncertain sends a paper to the model only when the
 * built-in analyzer's lowest confidence, min of relevance, study type and topic confidence, is below it).
 * For thresholds 0.30 to 0.95 it runs the built-in analyzer over the HELD-OUT half of the hand-judged set and
 * prints, for the papers the built-in would keep (lowest confidence at or above the threshold): their share, and
 * the built-in's study type, relevance band and topic (editor's relevance ≥ 1) accuracy and precision and recall
 * at relevance ≥ 2 on them. The suggested threshold is the lowest (so the most papers kept) at which kept study
 * type and band accuracy both reach 90%; DEFAULT_LLM_ROUTE_THRESHOLD in src/config.ts holds the one in use.
 *
 *   bun scripts/eval/route-threshold.ts            with MeSH as records have it, and with MeSH withheld
 *   bun scripts/eval/route-threshold.ts --json     the rows as JSON (for other scripts)
 *
 * Rerun it whenever the built-in confidences change, and move the constant if the suggestion moves.
 */
import { builtinAnalyzer } from '../../src/pipeline/analysis/builtin-analyzer'
import { leastConfidence } from '../../src/pipeline/analysis/routing-analyzer'
import { DEFAULT_LLM_ROUTE_THRESHOLD } from '../../src/config'
import { accuracy, precision, recall, score, type Outcome } from './evaluate'
import { handLabelled } from './hand-labelled'
import { haveFixtures, recordsOf, withoutMesh } from './records'

/** The quality each of study type and relevance band must keep on the papers the built-in keeps. */
export const TARGET = 0.9
export const THRESHOLDS = Array.from({ length: 14 }, (_, i) => Math.round((0.3 + 0.05 * i) * 100) / 100)

export type CurveRow = {
  threshold: number
  kept: number
  total: number
  studyType: number
  band: number
  topic: number
  topicN: number
  precision: number
  recall: number
  positives: { truePositive: number; falsePositive: number; falseNegative: number }
}

/** The built-in's judgement of every held-out paper, as the routing analyzer sees it. */
export async function heldOutOutcomes(options: { noMesh?: boolean } = {}): Promise<Outcome[]> {
  const analyzer = builtinAnalyzer()
  const out: Outcome[] = []
  for (const label of handLabelled().filter((l) => l.half === 'held-out')) {
    const record = recordsOf(label.file).get(label.id)
    if (!record) throw new Error(`hand-labelled paper ${label.id} is not in ${label.file}`)
    const input = options.noMesh ? withoutMesh(record) : record
    out.push({ label, title: record.title, judgement: (await analyzer.analyzePaper(input)).judgement })
  }
  return out
}

export function curveRow(outcomes: Outcome[], threshold: number): CurveRow {
  const kept = outcomes.filter((o) => leastConfidence(o.judgement) >= threshold)
  const s = score(kept)
  return {
    threshold,
    kept: kept.length,
    total: outcomes.length,
    studyType: accuracy(s.studyType),
    band: accuracy(s.band),
    topic: accuracy(s.topic),
    topicN: s.topic.length,
    precision: precision(s.positives),
    recall: recall(s.positives),
    positives: s.positives,
  }
}

export const curve = (outcomes: Outcome[]) => THRESHOLDS.map((t) => curveRow(outcomes, t))

/** The lowest threshold whose kept papers reach TARGET in study type and band; null when none does. */
export function suggestedThreshold(rows: CurveRow[]): number | null {
  const good = rows.filter((r) => r.kept > 0 && r.studyType >= TARGET && r.band >= TARGET)
  return good.length ? Math.min(...good.map((r) => r.threshold)) : null
}

const pct = (x: number) => (Number.isNaN(x) ? '—' : `${(100 * x).toFixed(1)}%`)

export function table(rows: CurveRow[]): string[] {
  return [
    '| threshold | kept | study type | relevance band | topic (rel ≥ 1) | precision at ≥ 2 | recall at ≥ 2 |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => {
      const p = r.positives
      return (
        `| ${r.threshold.toFixed(2)}${r.threshold === DEFAULT_LLM_ROUTE_THRESHOLD ? ' (default)' : ''} | ${r.kept} / ${r.total} = ${pct(r.kept / r.total)} ` +
        `| ${pct(r.studyType)} | ${pct(r.band)} | ${pct(r.topic)} (n ${r.topicN}) ` +
        `| ${pct(r.precision)} (${p.truePositive} of ${p.truePositive + p.falsePositive}) | ${pct(r.recall)} (${p.truePositive} of ${p.truePositive + p.falseNegative}) |`
      )
    }),
  ]
}

if (import.meta.main) {
  if (!haveFixtures) {
    console.error('../shared/fixtures is missing: the hand-judged records are read from it')
    process.exit(1)
  }
  const withMesh = curve(await heldOutOutcomes())
  const noMesh = curve(await heldOutOutcomes({ noMesh: true }))
  if (process.argv.includes('--json')) {
    console.log(
      JSON.stringify(
        { withMesh, noMesh, suggested: suggestedThreshold(withMesh), default: DEFAULT_LLM_ROUTE_THRESHOLD },
        null,
        2,
      ),
    )
  } else {
    const suggested = suggestedThreshold(withMesh)
    console.log(
      `Held-out half, papers the built-in keeps (lowest confidence ≥ threshold); the rest would go to the model.\n`,
    )
    console.log('With MeSH as the records have it:\n')
    console.log(table(withMesh).join('\n'))
    console.log('\nMeSH and chemicals withheld (a paper harvested before indexing):\n')
    console.log(table(noMesh).join('\n'))
    console.log(
      `\nSuggested threshold (lowest where kept study type and band both reach ${pct(TARGET)}, with MeSH): ${suggested ?? 'none reaches it'}`,
    )
    console.log(
      `DEFAULT_LLM_ROUTE_THRESHOLD in src/config.ts: ${DEFAULT_LLM_ROUTE_THRESHOLD}${suggested !== null && suggested !== DEFAULT_LLM_ROUTE_THRESHOLD ? '  <- differs: move it' : ''}`,
    )
  }
}
