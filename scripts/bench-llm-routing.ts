/**
 * How many model calls LLM_ROUTE=uncertain saves on a realistic stream ("the model where it pays").
 * The real analysis pipeline, with the analyzer the configuration builds (parseConfig + createAnalyzer), runs over
 * real records as unjudged papers: every record of ../shared/fixtures/literature/synergy-v1/<set>/works_kept.json.gz
 * (eight review-screening sets: trials, cohorts, reviews, hard negatives) and literature/easyner-lund-autophagy
 * (PubMed records on autophagy). The model is a local OpenAI-compatible server (test/analysis/replay-server.ts)
 * that answers valid JSON for every task and counts the requests. Each mode runs --runs times on a freshly emptied
 * papers table; requests are the same every run (the built-in is deterministic), papers/s is the median.
 * Then the built-in analyzer's accuracy on the held-out papers it keeps at the threshold (scripts/eval/route-threshold.ts).
 *
 *   bun scripts/bench-llm-routing.ts [--runs 3] [--threshold 0.85] [--latency-ms 0] [--every 1] [--papers N]
 *   DATABASE_URL=postgres://... bun scripts/bench-llm-routing.ts      # a scratch PostgreSQL database (its papers emptied)
 *
 * --latency-ms delays every model answer (a real model takes seconds; 0 measures the pipeline's own cost).
 * --every N takes every Nth record of the stream (the same mix of sets, N times fewer papers) on a busy machine.
 * The independent check sets (europepmc/, europepmc-agpl/, europepmc-mixed-core-150.json) are not read.
 */
import { readdirSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { createAnalyzer } from '../src/pipeline/analysis/create-analyzer'
import { runAnalysis } from '../src/pipeline/analysis/pipeline'
import type { PaperInput } from '../src/pipeline/analysis/types'
import { DEFAULT_LLM_ROUTE_THRESHOLD, parseConfig } from '../src/config'
import { openDatabase } from '../src/db/client'
import { migrateDatabase } from '../src/db/migrate'
import { papers } from '../src/db/schema'
import { startReplayServer } from '../test/analysis/replay-server'
import { median } from './bench/server'
import { numberOption } from './bench/wrk'
import { curveRow, heldOutOutcomes } from './eval/route-threshold'
import { fixturesDir, haveFixtures, readFile } from './eval/records'

if (!haveFixtures) {
  console.error('../shared/fixtures is missing: the stream is read from it')
  process.exit(1)
}
const runs = numberOption('runs', 3)
const threshold = numberOption('threshold', DEFAULT_LLM_ROUTE_THRESHOLD)
const latencyMs = numberOption('latency-ms', 0)
const every = numberOption('every', 1)
const limit = numberOption('papers', Number.MAX_SAFE_INTEGER)

function stream(): PaperInput[] {
  const files = [
    ...readdirSync(`${fixturesDir}literature/synergy-v1`, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `literature/synergy-v1/${d.name}/works_kept.json.gz`)
      .sort(),
    'literature/easyner-lund-autophagy/Lund-Autophagy-1_articles.json',
  ]
  const byId = new Map<string, PaperInput>()
  for (const file of files) for (const p of readFile(file)) if (!byId.has(p.id) && p.title) byId.set(p.id, p)
  return [...byId.values()].filter((_p, i) => i % every === 0).slice(0, limit)
}

const records = stream()
const rows = records.map((p) => ({
  id: p.id,
  source: p.id.split('-')[0],
  title: p.title,
  authors: '',
  journal: p.journal,
  indexedDate: '2026-11-01',
  url: `https://example.org/${p.id}`,
  preprint: p.preprint,
  publicationTypes: p.publicationTypes,
  abstract: p.abstract,
  meshHeadings: p.meshHeadings,
  keywords: p.keywords,
  chemicals: p.chemicals,
}))

// Valid answers for every task: judged tangential and not newsworthy, so a paper with an abstract costs three
// requests (judge, entities, claims) and one without costs one, as with a real model that finds no story.
const ANSWERS: Record<string, unknown> = {
  judge: {
    relevance: [0.5, 0.3, 0.15, 0.05],
    relevance_confidence: 0.8,
    newsworthiness: 1,
    study_type: 'other',
    study_type_confidence: 0.8,
    topic: 'other',
    topic_confidence: 0.8,
    promotional: 0,
  },
  entities: { entities: [] },
  claims: { claims: [] },
  article: { summary: 'S.', key_points: [], tags: [] },
}
const server = startReplayServer()

const url = process.env.DATABASE_URL?.trim()
const database = url ? await openDatabase({ kind: 'postgres', url, max: 6 }) : await openDatabase({ kind: 'pglite' })
await migrateDatabase(database, url)

type Run = { seconds: number; papers: number; failed: number; requests: number; toModel: number }

async function once(mode: 'all' | 'uncertain'): Promise<Run> {
  await database.db.execute(sql`truncate papers cascade`)
  for (let at = 0; at < rows.length; at += 500) await database.db.insert(papers).values(rows.slice(at, at + 500))
  server.reset((task) => ({ json: ANSWERS[task], delayMs: latencyMs }))
  const config = parseConfig({
    LLM_BASE_URL: server.url,
    LLM_MODEL: 'bench-model',
    LLM_ROUTE: mode,
    ...(mode === 'uncertain' ? { LLM_ROUTE_THRESHOLD: String(threshold) } : {}),
  })
  const started = performance.now()
  const counts = await runAnalysis(database.db, createAnalyzer(database.db, config), {
    onFailure: (m) => console.error(m),
  })
  const seconds = (performance.now() - started) / 1000
  if (counts.llm_requests !== server.calls.length)
    throw new Error(`the client counted ${counts.llm_requests} requests, the server ${server.calls.length}`)
  return {
    seconds,
    papers: counts.papers,
    failed: counts.failed,
    requests: server.calls.length,
    toModel: server.calls.filter((c) => c.task === 'judge').length,
  }
}

console.log(
  `${database.driver}: ${records.length} records (synergy-v1 works_kept and Lund autophagy${every > 1 ? `, every ${every}th` : ''}), ${runs} runs a mode, ` +
    `model answers after ${latencyMs} ms, LLM_CONCURRENCY 4, threshold ${threshold}`,
)
const results: Record<string, Run[]> = { all: [], uncertain: [] }
for (let r = 0; r < runs; r++) {
  for (const mode of ['all', 'uncertain'] as const) {
    // interleaved, so drift in the machine's load hits both
    const run = await once(mode)
    results[mode].push(run)
    console.log(
      `  run ${r + 1} ${mode.padEnd(9)} ${run.papers} papers (${run.failed} failed) in ${run.seconds.toFixed(1)} s, ${run.requests} requests, ${run.toModel} papers to the model`,
    )
  }
}
const summary = (mode: string) => {
  const rs = results[mode]
  return { requests: rs[0].requests, toModel: rs[0].toModel, rate: median(rs.map((x) => x.papers / x.seconds)) }
}
const all = summary('all')
const uncertain = summary('uncertain')
console.log(
  `\n| LLM_ROUTE | model requests | papers sent to the model | papers/s (median of ${runs}) |\n|---|---|---|---|`,
)
console.log(`| all | ${all.requests} | ${all.toModel} of ${records.length} | ${all.rate.toFixed(0)} |`)
console.log(
  `| uncertain (${threshold}) | ${uncertain.requests} | ${uncertain.toModel} of ${records.length} = ${((100 * uncertain.toModel) / records.length).toFixed(1)}% | ${uncertain.rate.toFixed(0)} |`,
)
console.log(
  `\nrequests saved by uncertain: ${all.requests - uncertain.requests} of ${all.requests} = ${(100 * (1 - uncertain.requests / all.requests)).toFixed(1)}%`,
)

const row = curveRow(await heldOutOutcomes(), threshold)
const pct = (x: number) => (Number.isNaN(x) ? '—' : `${(100 * x).toFixed(1)}%`)
console.log(
  `\nheld-out half, the papers the built-in keeps at ${threshold}: ${row.kept} of ${row.total} (${pct(row.kept / row.total)}); ` +
    `study type ${pct(row.studyType)}, relevance band ${pct(row.band)}, topic ${pct(row.topic)} (n ${row.topicN}), ` +
    `precision at ≥ 2 ${pct(row.precision)}, recall at ≥ 2 ${pct(row.recall)}`,
)

server.stop()
await database.close()
