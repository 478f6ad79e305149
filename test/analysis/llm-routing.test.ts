/**
 * LLM_ROUTE=uncertain against a local OpenAI-compatible server that counts requests: only papers whose lowest
 * built-in confidence is below the threshold reach the model; the others keep the built-in judgement, recorded
 * under the built-in's name and prompt version. LLM_ROUTE=all is today's path, and a model failure is the same
 * failure under either route.
 */
import { beforeEach, describe, expect, test } from 'bun:test'
import { eq, inArray } from 'drizzle-orm'
import type { Analyzer } from '../../src/pipeline/analysis/analyzer'
import { BUILTIN_MODEL, BUILTIN_PROMPT_VERSION } from '../../src/pipeline/analysis/builtin'
import { builtinAnalyzer } from '../../src/pipeline/analysis/builtin-analyzer'
import { createAnalyzer } from '../../src/pipeline/analysis/create-analyzer'
import { llmAnalyzer } from '../../src/pipeline/analysis/llm/analyzer'
import { runAnalysis } from '../../src/pipeline/analysis/pipeline'
import { routingAnalyzer } from '../../src/pipeline/analysis/routing-analyzer'
import type { PaperInput } from '../../src/pipeline/analysis/types'
import { parseConfig } from '../../src/config'
import { paperEntities, papers, promptVersions, prompts } from '../../src/db/schema'
import type { TestDatabase } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'
import { paperInput, RAPAMYCIN_MICE } from './paper-input'
import { useDatabaseAndReplay, type Reply, type ReplayServer } from './replay-server'

let database: TestDatabase
let server: ReplayServer
useDatabaseAndReplay((d, s) => {
  database = d
  server = s
})

// The model's answers: newsworthy 1, so a paper with an abstract costs three requests (judge, entities, claims).
const ANSWERS: Record<string, unknown> = {
  judge: {
    relevance: [0.1, 0.2, 0.3, 0.4],
    relevance_confidence: 0.8,
    newsworthiness: 1,
    study_type: 'review',
    study_type_confidence: 0.8,
    topic: 'other',
    topic_confidence: 0.8,
    promotional: 0,
  },
  entities: { entities: [] },
  claims: { claims: [] },
  article: { summary: 'S.', key_points: ['k'], tags: ['t'] },
}
const valid = (task: string): Reply => ({ json: ANSWERS[task] })

/** Records the built-in is sure of and records it is not (a title alone, an engineering paper, a trial). */
const RECORDS: Omit<PaperInput, 'id'>[] = [
  RAPAMYCIN_MICE,
  paperInput({
    title: 'Effect of a new bolt design on bridge fatigue',
    abstract: 'We tested steel bolts under cyclic load in a bridge. Fatigue life improved by 20%.',
    journal: 'Engineering Structures',
  }),
  paperInput({
    title: 'Frailty and outcomes after hip surgery in older adults',
    abstract: null,
    journal: 'Age and Ageing',
    publicationTypes: [],
  }),
  paperInput({
    title: 'Senolytic dasatinib plus quercetin reduces senescent cell burden in humans: a randomized controlled trial',
    abstract:
      'In this randomized placebo-controlled trial of 40 adults with diabetic kidney disease, dasatinib plus quercetin reduced senescent cell markers in adipose tissue and skin.',
    publicationTypes: ['Randomized Controlled Trial'],
  }),
  paperInput({
    title: 'Metformin and cancer-specific survival in colorectal cancer: a retrospective cohort',
    abstract:
      'We followed 1,200 patients with colorectal cancer for five years. Metformin use was associated with longer cancer-specific survival.',
    journal: 'Cancer Epidemiology',
  }),
]

const least = (p: PaperInput) =>
  builtinAnalyzer()
    .analyzePaper(p)
    .then(({ judgement: j }) => Math.min(j.relevanceConfidence, j.studyTypeConfidence, j.topicConfidence))

/**
 * A threshold halfway through the records' lowest built-in confidences, so some are kept and some routed, whatever
 * the confidences are after a recalibration; and which records fall below it.
 */
async function split(): Promise<{ threshold: number; below: Set<string> }> {
  const levels = [...new Set(await Promise.all(RECORDS.map((r) => least({ ...r, id: 'probe' }))))].sort((a, b) => a - b)
  expect(levels.length).toBeGreaterThanOrEqual(2) // the records must differ in confidence for the test to mean anything
  const mid = Math.floor(levels.length / 2)
  const threshold = Math.round(((levels[mid - 1] + levels[mid]) / 2) * 1000) / 1000
  const below = new Set<string>()
  for (const r of RECORDS) if ((await least({ ...r, id: 'probe' })) < threshold) below.add(r.title)
  return { threshold, below }
}

let serial = 0
/** The records as papers not yet judged; returns their ids in RECORDS order. */
async function insertRecords(): Promise<string[]> {
  const rows = RECORDS.map((r) =>
    paperRow({
      id: `MED-${930000 + ++serial}`,
      title: r.title,
      abstract: r.abstract,
      journal: r.journal,
      publicationTypes: r.publicationTypes,
      meshHeadings: r.meshHeadings,
      keywords: r.keywords,
      chemicals: r.chemicals,
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
    }),
  )
  await insertPapers(database.db, rows)
  return rows.map((r) => r.id!)
}

const stored = async (ids: string[]) => {
  const rows = await database.db.select().from(papers).where(inArray(papers.id, ids))
  return ids.map((id) => rows.find((r) => r.id === id)!)
}
const judgedTitles = () =>
  server.calls
    .filter((c) => c.task === 'judge')
    .map((c) => RECORDS.find((r) => c.user.includes(JSON.stringify(r.title)))?.title)
    .sort()

const modelOptions = {
  baseUrl: '',
  apiKey: null,
  model: 'test-model',
  concurrency: 2,
  timeoutMs: 300,
  maxAttempts: 2,
  backoffMs: 5,
}
const model = () => llmAnalyzer(database.db, { ...modelOptions, baseUrl: server.url })
const routed = (threshold: number) => routingAnalyzer(builtinAnalyzer(), model(), threshold)

beforeEach(async () => {
  // Each test starts with no pending work of earlier tests, and none a stale run would redo.
  await database.db
    .update(papers)
    .set({ judgedAt: new Date(), extractedAt: new Date(), judgementPromptVersion: BUILTIN_PROMPT_VERSION })
})

describe('LLM_ROUTE=uncertain', () => {
  test('configured, only papers below the threshold reach the model; the rest keep the built-in judgement, extraction and name', async () => {
    const { threshold, below } = await split()
    expect(below.size).toBeGreaterThan(0)
    expect(below.size).toBeLessThan(RECORDS.length)
    server.reset((task) => valid(task))
    const ids = await insertRecords()
    const analyzer = createAnalyzer(
      database.db,
      parseConfig({
        LLM_BASE_URL: server.url,
        LLM_MODEL: 'test-model',
        LLM_ROUTE: 'uncertain',
        LLM_ROUTE_THRESHOLD: String(threshold),
      }),
    )
    const counts = await runAnalysis(database.db, analyzer)

    expect(counts).toMatchObject({ papers: RECORDS.length, failed: 0 })
    expect(judgedTitles()).toEqual([...below].sort())
    const withAbstract = RECORDS.filter((r) => below.has(r.title) && r.abstract).length
    expect(server.calls).toHaveLength(below.size + 2 * withAbstract) // judge for each; entities and claims when there is an abstract
    expect(counts.llm_requests).toBe(server.calls.length)

    const rows = await stored(ids)
    for (const [i, record] of RECORDS.entries()) {
      const row = rows[i]
      if (below.has(record.title)) {
        expect(row).toMatchObject({
          judgementModel: 'test-model',
          judgementPromptVersion: 'judge-v1',
          studyType: 'review',
          topic: 'other',
        })
        continue
      }
      const builtin = (await builtinAnalyzer().analyzePaper({ ...record, id: row.id })).judgement
      expect(row).toMatchObject({
        judgementModel: BUILTIN_MODEL,
        judgementPromptVersion: BUILTIN_PROMPT_VERSION,
        relevance: builtin.relevance,
        studyType: builtin.studyType,
        topic: builtin.topic,
      })
    }
    // The built-in's extraction is stored for the papers it kept (the rapamycin paper names rapamycin).
    const kept = rows.filter((r) => r.judgementModel === BUILTIN_MODEL && r.title === RAPAMYCIN_MICE.title)
    if (kept.length)
      expect(
        (await database.db.select().from(paperEntities).where(eq(paperEntities.paperId, kept[0].id))).length,
      ).toBeGreaterThan(0)
  })

  test('LLM_ROUTE=all (the default) sends every paper to the model, as before', async () => {
    server.reset((task) => valid(task))
    const ids = await insertRecords()
    const config = parseConfig({ LLM_BASE_URL: server.url, LLM_MODEL: 'test-model' })
    expect(config.llm?.route?.mode).toBe('all')
    const counts = await runAnalysis(database.db, createAnalyzer(database.db, config))
    expect(counts).toMatchObject({ papers: RECORDS.length, failed: 0 })
    expect(judgedTitles()).toEqual(RECORDS.map((r) => r.title).sort())
    expect(server.calls).toHaveLength(RECORDS.length + 2 * RECORDS.filter((r) => r.abstract).length)
    expect((await stored(ids)).map((r) => r.judgementModel)).toEqual(RECORDS.map(() => 'test-model'))
  })

  test.each([
    ['a 500 on every attempt', (): Reply => ({ status: 500 })],
    ['invalid JSON on every attempt', (): Reply => ({ text: 'Sure! {relevance' })],
    ['no answer in time', (): Reply => ({ delayMs: 600, json: ANSWERS.judge })],
  ])(
    'a paper the model fails on (%s) fails as it does under LLM_ROUTE=all: counted, reported, nothing stored',
    async (_name, reply) => {
      const { threshold, below } = await split()
      const outcome = async (analyzer: Analyzer) => {
        server.reset((task) => (task === 'judge' ? reply() : valid(task)))
        const ids = await insertRecords()
        const failures: string[] = []
        // Only this run's papers: the first run's failures are pending work for the second.
        const counts = await runAnalysis(database.db, analyzer, {
          only: { paperIds: ids, articleIds: [] },
          onFailure: (m) => failures.push(m),
        })
        const rows = await stored(ids)
        // Failures by title, so the two runs' different ids compare.
        const byTitle = failures
          .map((f) =>
            f.replace(/^analysis of (\S+) failed: /, (_m, id: string) => `${rows.find((r) => r.id === id)!.title}: `),
          )
          .sort()
        return { counts, rows, byTitle }
      }
      const all = await outcome(model())
      const uncertain = await outcome(routed(threshold))

      expect(all.counts).toMatchObject({ papers: 0, failed: RECORDS.length })
      expect(uncertain.counts).toMatchObject({ papers: RECORDS.length - below.size, failed: below.size })
      // The same message for the same paper, and the failed paper left unjudged for the next run under both routes.
      expect(uncertain.byTitle).toEqual(all.byTitle.filter((f) => [...below].some((t) => f.startsWith(`${t}: `))))
      expect(uncertain.byTitle[0]).toContain('judge: gave up after 2 attempts')
      for (const [i, record] of RECORDS.entries()) {
        expect(all.rows[i]).toMatchObject({ judgedAt: null, relevance: null, judgementModel: null })
        if (below.has(record.title))
          expect(uncertain.rows[i]).toMatchObject({ judgedAt: null, relevance: null, judgementModel: null })
        else expect(uncertain.rows[i].judgementModel).toBe(BUILTIN_MODEL)
      }
    },
  )

  test('a stale run redoes only papers judged with a prompt version neither analyzer uses now', async () => {
    const { threshold, below } = await split()
    server.reset((task) => valid(task))
    const ids = await insertRecords()
    await runAnalysis(database.db, routed(threshold))
    server.reset((task) => valid(task))
    expect(await runAnalysis(database.db, routed(threshold), { stale: true })).toMatchObject({ papers: 0 }) // both versions are current
    expect(server.calls).toHaveLength(0)

    await database.db
      .insert(promptVersions)
      .values({ promptId: 'judge', version: 2, body: '[task:judge] Judge strictly.' })
    await database.db.update(prompts).set({ currentVersion: 2 }).where(eq(prompts.id, 'judge'))
    try {
      const counts = await runAnalysis(database.db, routed(threshold), { stale: true })
      expect(counts.papers).toBe(below.size) // the model's papers, judged with judge-v1; the built-in's stay
      const rows = await stored(ids)
      for (const [i, record] of RECORDS.entries()) {
        expect(rows[i].judgementPromptVersion).toBe(below.has(record.title) ? 'judge-v2' : BUILTIN_PROMPT_VERSION)
      }
    } finally {
      await database.db.update(prompts).set({ currentVersion: 1 }).where(eq(prompts.id, 'judge'))
    }
  })

  test('feed articles go to the model, as with LLM_ROUTE=all', async () => {
    const { threshold } = await split()
    server.reset((task) => valid(task))
    const analyzer = routed(threshold)
    expect(analyzer.model).toBe('test-model')
    expect(
      await analyzer.analyzeArticle({ id: 1, title: 'Rapamycin news', summary: 'Mice lived longer.', link: null }),
    ).toMatchObject({ summary: 'S.' })
    expect(server.calls.map((c) => c.task)).toEqual(['article'])
  })
})
