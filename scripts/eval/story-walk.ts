/**
 * Walks stories and checks each with story-checker.ts: every story of a database (published and held back, with its
 * paper's study type, publication types and claims), or the built-in analyzer's stories for fixture records.
 *
 *   bun scripts/eval/story-walk.ts            the demo corpus after the start-up analysis, and every record of
 *                                             ../shared/fixtures/literature/{easyner-lund-autophagy,synergy-v1}
 *   bun scripts/eval/story-walk.ts --per 200  at most 200 records per fixture file
 */
import { readdirSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import type { Database } from '../../src/db/client'
import { analyzePaper, storyFor } from '../../src/pipeline/analysis/builtin'
import type { PaperInput } from '../../src/pipeline/analysis/types'
import { isPublishable } from '../../src/pipeline/stories/publish'
import { checkStory, type CheckedStory, type Finding, type StudyType } from './story-checker'
import { fixturesDir, readFile } from './records'

export type Walked = {
  id: string
  studyType: StudyType
  support: number | null
  held: boolean
  headline: string
  findings: Finding[]
}

export type WalkSummary = {
  stories: number
  designConsistent: number
  organismConsistent: number
  consistent: number
  held: number
  failures: Walked[]
}

export function summarise(walked: Walked[]): WalkSummary {
  const without = (kind: Finding['kind']) => walked.filter((w) => !w.findings.some((f) => f.kind === kind)).length
  return {
    stories: walked.length,
    designConsistent: without('design'),
    organismConsistent: without('organism'),
    consistent: walked.filter((w) => w.findings.length === 0).length,
    held: walked.filter((w) => w.held).length,
    failures: walked.filter((w) => w.findings.length > 0),
  }
}

type StoryRow = CheckedStory & {
  paperId: string
  support: number | null
  held: boolean
  studyType: StudyType
  publicationTypes: string[]
  journal: string
}

/** Every story in the database, published or held, checked against its paper's judgement and claims as stored. */
export async function walkDatabase(database: Database): Promise<Walked[]> {
  const stories = await database.rows<StoryRow>(sql`
    select s.paper_id as "paperId", s.headline, s.dek, s.body, s.why_it_matters as "whyItMatters", s.caveats, s.support, s.held,
      p.study_type as "studyType", p.publication_types as "publicationTypes", p.journal
    from (
      select paper_id, headline, dek, body, why_it_matters, caveats, support, false as held from stories
      union all select paper_id, headline, dek, body, why_it_matters, caveats, support, true from held_stories
    ) s join papers p on p.id = s.paper_id
    order by s.paper_id`)
  const claims = await database.rows<{ paperId: string; organism: string | null; evidence: string }>(sql`
    select paper_id as "paperId", organism, evidence from claims
    where paper_id in (select paper_id from stories union all select paper_id from held_stories)`)
  const byPaper = new Map<string, { organism: string | null; evidence: string }[]>()
  for (const c of claims) byPaper.set(c.paperId, [...(byPaper.get(c.paperId) ?? []), c])
  return stories.map((s) => ({
    id: s.paperId,
    studyType: s.studyType,
    support: s.support,
    held: s.held,
    headline: s.headline,
    findings: checkStory(
      s,
      s.studyType,
      { publicationTypes: s.publicationTypes, journal: s.journal },
      byPaper.get(s.paperId) ?? [],
    ),
  }))
}

/**
 * The built-in analyzer's story for every record with an abstract, checked against the same analysis's judgement and
 * claims: the story it publishes for a newsworthy ageing paper (`due`), and for every other record the story the
 * writer would give it were it newsworthy, so the writer is tried on every design and organism the records hold.
 */
export function walkRecords(records: PaperInput[]): (Walked & { due: boolean })[] {
  const out: (Walked & { due: boolean })[] = []
  for (const paper of records) {
    const { judgement, entities, claims, story: published } = analyzePaper(paper)
    const story = published ?? storyFor(paper, judgement, { entities, claims })
    if (!story) continue
    out.push({
      id: paper.id,
      studyType: judgement.studyType,
      support: story.support,
      held: !isPublishable(story.support),
      headline: story.headline,
      findings: checkStory(story, judgement.studyType, paper, claims),
      due: published !== null,
    })
  }
  return out
}

/** The fixture files the walk reads: EasyNER's Lund autophagy records and every SYNERGY review set. */
export function fixtureFiles(): string[] {
  const synergy = readdirSync(`${fixturesDir}literature/synergy-v1`, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
  return [
    'literature/easyner-lund-autophagy/Lund-Autophagy-1_articles.json',
    ...synergy.map((d) => `literature/synergy-v1/${d}/works_kept.json.gz`),
  ]
}

export const fixtureRecords = (file: string, per = Infinity) => readFile(file).slice(0, per)

if (import.meta.main) {
  const per = process.argv.includes('--per') ? Number(process.argv[process.argv.indexOf('--per') + 1]) : Infinity
  const { createPglite, openDatabase } = await import('../../src/db/client')
  const { migrateDatabase } = await import('../../src/db/migrate')
  const { seedDemo } = await import('../../src/seed/demo')
  const { runAnalysis } = await import('../../src/pipeline/analysis/pipeline')
  const { builtinAnalyzer } = await import('../../src/pipeline/analysis/builtin-analyzer')
  const database = await openDatabase({ kind: 'pglite-instance', client: await createPglite() })
  await migrateDatabase(database)
  await seedDemo(database, '2026-11-29')
  await runAnalysis(database.db, builtinAnalyzer()) // what start-up's analysis job does
  const report = (name: string, s: WalkSummary) => {
    const pct = (n: number) => `${n} / ${s.stories} = ${s.stories ? ((100 * n) / s.stories).toFixed(1) : '-'}%`
    console.log(
      `${name}: ${s.stories} stories; design ${pct(s.designConsistent)}; organism ${pct(s.organismConsistent)}; both ${pct(s.consistent)}; held back (support ≤ 1): ${s.held}`,
    )
    for (const f of s.failures.slice(0, 20))
      console.log(`  ${f.id} [${f.studyType}] ${f.headline}: ${f.findings.map((x) => x.problem).join('; ')}`)
  }
  report('demo corpus (2,000 papers, seed 1, after the start-up analysis)', summarise(await walkDatabase(database)))
  const all: (Walked & { due: boolean })[] = []
  for (const file of fixtureFiles()) {
    const records = fixtureRecords(file, per)
    const walked = walkRecords(records)
    all.push(...walked)
    report(`${file} (${records.length} records)`, summarise(walked))
  }
  report('all fixture records (a story written for every record with an abstract)', summarise(all))
  report('fixture records whose story is due (newsworthy ageing research)', summarise(all.filter((w) => w.due)))
  await database.close()
}
