/**
 * End to end, for information: `runAnalysis` with the built-in analyzer over synthetic unjudged
 * papers, storing every result (one transaction per paper) in a fresh database.
 *
 *   bun scripts/bench-analysis-store.ts [--papers 2000]                  # in-memory PGlite
 *   DATABASE_URL=postgres://... bun scripts/bench-analysis-store.ts       # a scratch PostgreSQL database (emptied first)
 */
import { sql } from 'drizzle-orm'
import { builtinAnalyzer } from '../src/pipeline/analysis/builtin-analyzer'
import { runAnalysis } from '../src/pipeline/analysis/pipeline'
import { openDatabase } from '../src/db/client'
import { migrateDatabase } from '../src/db/migrate'
import { papers } from '../src/db/schema'
import { generateCorpus } from '../src/seed/corpus'

const i = process.argv.indexOf('--papers')
const count = i > 0 ? Number(process.argv[i + 1]) : 2000
const url = process.env.DATABASE_URL?.trim()
const database = url ? await openDatabase({ kind: 'postgres', url, max: 2 }) : await openDatabase({ kind: 'pglite' })
await migrateDatabase(database, url)
await database.db.execute(sql`truncate papers cascade`)
const rows = [...generateCorpus({ papers: count, seed: 1, endDate: '2026-11-01' })].map(({ paper }) => ({
  ...paper,
  relevance: null,
  relevanceConfidence: null,
  newsworthiness: null,
  studyType: null,
  studyTypeConfidence: null,
  topic: null,
  topicConfidence: null,
  promotional: null,
  judgementModel: null,
  judgementPromptVersion: null,
  judgedAt: null,
  extractedAt: null,
  createdAt: new Date(paper.createdAt),
  updatedAt: new Date(paper.updatedAt),
}))
for (let at = 0; at < rows.length; at += 500) await database.db.insert(papers).values(rows.slice(at, at + 500))
const started = performance.now()
const counts = await runAnalysis(database.db, builtinAnalyzer())
const seconds = (performance.now() - started) / 1000
console.log(
  `${database.driver}: ${counts.papers} papers analysed and stored in ${seconds.toFixed(1)} s = ${(counts.papers / seconds).toFixed(0)} papers/s ` +
    `(${counts.stories} stories, ${counts.entities} entity links, ${counts.claims} claims, ${counts.failed} failed)`,
)
await database.close()
