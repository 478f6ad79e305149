import { beforeEach, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { llmAnalyzer } from '../../src/pipeline/analysis/llm/analyzer'
import { runAnalysis } from '../../src/pipeline/analysis/pipeline'
import {
  articleAnalyses,
  articles,
  claims,
  entities,
  jobRuns,
  paperEntities,
  papers,
  promptVersions,
  prompts,
  rssSources,
  stories,
} from '../../src/db/schema'
import { recordRun } from '../../src/jobs/job-runs'
import type { TestDatabase } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'
import { RAPAMYCIN_MICE } from './paper-input'
import { useDatabaseAndReplay, type Reply, type ReplayServer } from './replay-server'

let database: TestDatabase
let server: ReplayServer
useDatabaseAndReplay((d, s) => {
  database = d
  server = s
})

const ABSTRACT = RAPAMYCIN_MICE.abstract!
const unjudged = (id: string) =>
  paperRow({
    id,
    title: RAPAMYCIN_MICE.title,
    abstract: ABSTRACT,
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
  })

const ANSWERS: Record<string, unknown> = {
  judge: {
    relevance: [0, 0.1, 0.3, 0.6],
    relevance_confidence: 0.9,
    newsworthiness: 2,
    study_type: 'animal',
    study_type_confidence: 0.95,
    topic: 'mtor-rapamycin',
    topic_confidence: 0.85,
    promotional: 0.01,
  },
  entities: {
    entities: [
      {
        type: 'intervention',
        name: 'Rapamycin',
        role: 'studied',
        detail: { dose: '14 ppm', mention: 'rapamycin', bogus: 'dropped' },
      },
      { type: 'gene', name: 'a gene nobody curated', role: 'mechanism' },
    ],
  },
  claims: {
    claims: [
      {
        subject: 'rapamycin',
        relation: 'extends_lifespan',
        object: 'lifespan',
        organism: 'Mus musculus',
        direction: 'increase',
        magnitude: '12%',
        evidence: 'Rapamycin extended median lifespan by 12% and reduced SASP expression in the liver.',
        confidence: 0.9,
      },
    ],
  },
  story: {
    headline: 'Rapamycin extends mouse lifespan',
    dek: 'A mouse study.',
    body: 'One.\n\nTwo.',
    why_it_matters: 'mTOR.',
    caveats: 'Mice only.',
  },
  support: { support: 3, problems: [] },
  article: { summary: 'S.', key_points: ['k'], tags: ['t'] },
}
const valid = (task: string): Reply => ({ json: ANSWERS[task] })

const analyzer = (overrides: { concurrency?: number; timeoutMs?: number; maxAttempts?: number } = {}) =>
  llmAnalyzer(database.db, {
    baseUrl: server.url,
    apiKey: 'sk-test',
    model: 'test-model',
    concurrency: overrides.concurrency ?? 2,
    timeoutMs: overrides.timeoutMs ?? 2000,
    maxAttempts: overrides.maxAttempts ?? 3,
    backoffMs: 5,
  })

let serial = 0
async function onePaper(): Promise<string> {
  const id = `MED-${900000 + ++serial}`
  await insertPapers(database.db, [unjudged(id)])
  return id
}
const paperById = async (id: string) => (await database.db.select().from(papers).where(eq(papers.id, id)))[0]

beforeEach(async () => {
  // Each test starts with no pending work of earlier tests.
  await database.db
    .update(papers)
    .set({ judgedAt: new Date(), extractedAt: new Date(), judgementPromptVersion: 'judge-v1' })
})

describe('analysis with a model', () => {
  test('stores validated answers with the model and prompt version that produced them', async () => {
    server.reset((task) => valid(task))
    const id = await onePaper()
    const counts = await runAnalysis(database.db, analyzer())
    expect(counts).toMatchObject({
      papers: 1,
      failed: 0,
      stories: 1,
      llm_requests: 5,
      prompt_tokens: 500,
      completion_tokens: 100,
    })
    expect(server.calls.map((c) => c.task).sort()).toEqual(['claims', 'entities', 'judge', 'story', 'support'])
    expect(server.calls.every((c) => c.authorization === 'Bearer sk-test')).toBe(true)
    expect(server.calls[0].user).toContain(ABSTRACT)

    const paper = await paperById(id)
    expect(paper).toMatchObject({
      relevance: 2.5,
      newsworthiness: 2,
      studyType: 'animal',
      topic: 'mtor-rapamycin',
      judgementModel: 'test-model',
      judgementPromptVersion: 'judge-v1',
    })
    const [story] = await database.db.select().from(stories).where(eq(stories.paperId, id))
    expect(story).toMatchObject({
      headline: 'Rapamycin extends mouse lifespan',
      whyItMatters: 'mTOR.',
      support: 3,
      model: 'test-model',
    })

    const linked = await database.db
      .select({ key: entities.key, role: paperEntities.role, detail: paperEntities.detail })
      .from(paperEntities)
      .innerJoin(entities, eq(entities.id, paperEntities.entityId))
      .where(eq(paperEntities.paperId, id))
    expect(linked).toContainEqual({
      key: 'CHEBI:9168',
      role: 'studied',
      detail: { dose: '14 ppm', mention: 'rapamycin' },
    }) // resolved to the lexicon
    expect(linked).toContainEqual({ key: 'a-gene-nobody-curated', role: 'mechanism', detail: null })
    const [claim] = await database.db.select().from(claims).where(eq(claims.paperId, id))
    expect(claim).toMatchObject({ relation: 'extends_lifespan', magnitude: '12%', confidence: 0.9 })
    expect(claim.subjectEntityId).not.toBeNull()
  })

  test.each([
    ['invalid JSON', { text: 'Sure! Here is the JSON: {relevance' }],
    ['an answer that breaks the schema', { json: { ...(ANSWERS.judge as object), relevance: [0.5, 0.5, 0.5, 0.5] } }],
    ['a 500', { status: 500 }],
    ['a 429 with Retry-After', { status: 429, headers: { 'retry-after': '0' } }],
    ['a timeout', { delayMs: 600, json: ANSWERS.judge }],
  ] as [string, Reply][])('retries after %s and stores the valid answer', async (_name, first) => {
    server.reset((task, n) => (task === 'judge' && n === 1 ? first : valid(task)))
    const id = await onePaper()
    const a = analyzer({ timeoutMs: 300 })
    expect(await runAnalysis(database.db, a)).toMatchObject({ papers: 1, failed: 0, llm_retries: 1 })
    expect((await paperById(id)).judgementModel).toBe('test-model')
  })

  test('records a failure, and stores nothing, when every attempt is invalid', async () => {
    server.reset((task) =>
      task === 'claims'
        ? {
            json: {
              claims: [
                {
                  ...(ANSWERS.claims as { claims: object[] }).claims[0],
                  evidence: 'A sentence the abstract never says.',
                },
              ],
            },
          }
        : valid(task),
    )
    const id = await onePaper()
    const failures: string[] = []
    const counts = await runAnalysis(database.db, analyzer(), { onFailure: (m) => failures.push(m) })
    expect(counts).toMatchObject({ papers: 0, failed: 1 })
    expect(failures[0]).toContain(
      'claims: gave up after 3 attempts (the answer does not match the claims schema: claims[0].evidence is not a quote from the abstract)',
    )
    expect(server.calls.filter((c) => c.task === 'claims')).toHaveLength(3)
    const paper = await paperById(id)
    expect(paper.judgedAt).toBeNull()
    expect(paper.relevance).toBeNull()
    expect(await database.db.select().from(claims).where(eq(claims.paperId, id))).toEqual([])
    expect(await database.db.select().from(stories).where(eq(stories.paperId, id))).toEqual([])
  })

  test("caps the model's support verdict with the rule-based check", async () => {
    server.reset((task) =>
      task === 'story'
        ? { json: { ...(ANSWERS.story as object), body: 'Rapamycin extended lifespan by 40% in mice.' } }
        : valid(task),
    )
    const id = await onePaper()
    await runAnalysis(database.db, analyzer())
    const [story] = await database.db.select().from(stories).where(eq(stories.paperId, id))
    expect(story.support).toBe(2) // the model said 3; the abstract reports 12%, not 40%
  })

  test('does not retry a request the server refuses (400)', async () => {
    server.reset(() => ({ status: 400 }))
    await onePaper()
    const failures: string[] = []
    expect(await runAnalysis(database.db, analyzer(), { onFailure: (m) => failures.push(m) })).toMatchObject({
      failed: 1,
      llm_requests: 1,
      llm_retries: 0,
    })
    expect(failures[0]).toContain('refused the request (400)')
  })

  test('keeps to the concurrency limit', async () => {
    server.reset((task) => ({ ...valid(task), delayMs: 30 }))
    for (let i = 0; i < 6; i++) await onePaper()
    expect(await runAnalysis(database.db, analyzer({ concurrency: 2 }))).toMatchObject({ papers: 6 })
    expect(server.maxInFlight).toBe(2)
  })

  test('a new prompt version lets operators re-run judging; earlier results stay until replaced', async () => {
    server.reset((task) => valid(task))
    const id = await onePaper()
    await runAnalysis(database.db, analyzer())
    await database.db
      .insert(promptVersions)
      .values({ promptId: 'judge', version: 2, body: '[task:judge] Judge strictly.' })
    await database.db.update(prompts).set({ currentVersion: 2 }).where(eq(prompts.id, 'judge'))
    await database.db.update(papers).set({ judgementPromptVersion: 'judge-v1' }) // everything else as judged before
    expect(await runAnalysis(database.db, analyzer())).toMatchObject({ papers: 0 }) // nothing re-runs by itself
    expect((await paperById(id)).judgementPromptVersion).toBe('judge-v1')
    server.reset((task) =>
      task === 'judge' ? { json: { ...(ANSWERS.judge as object), newsworthiness: 1 } } : valid(task),
    )
    const counts = await runAnalysis(database.db, analyzer(), { stale: true })
    expect(counts.papers).toBeGreaterThanOrEqual(1)
    expect(server.calls.some((c) => c.task === 'judge')).toBe(true)
    const paper = await paperById(id)
    expect(paper).toMatchObject({ judgementPromptVersion: 'judge-v2', newsworthiness: 1 })
    expect(await database.db.select().from(stories).where(eq(stories.paperId, id))).toHaveLength(1) // the earlier story stays
  })

  test('analyses feed articles with the article prompt and records its version', async () => {
    server.reset((task) => valid(task))
    const [source] = await database.db
      .insert(rssSources)
      .values({ name: 'Feed', url: 'https://example.org/llm-feed' })
      .returning()
    const [article] = await database.db
      .insert(articles)
      .values({ sourceId: source.id, guid: 'llm-1', title: 'Rapamycin news', summary: 'Mice lived longer.' })
      .returning()
    expect(await runAnalysis(database.db, analyzer())).toMatchObject({ articles: 1, articles_failed: 0 })
    expect(server.calls.map((c) => c.task)).toEqual(['article'])
    const [row] = await database.db.select().from(articleAnalyses).where(eq(articleAnalyses.articleId, article.id))
    expect(row).toMatchObject({
      summary: 'S.',
      keyPoints: ['k'],
      tags: ['t'],
      model: 'test-model',
      promptVersion: 'article-v1',
    })
  })

  test('answers holding NUL characters or lone surrogates are stored without them, in every task', async () => {
    const bad = (s: string) => `${s}\u0000\ud800`
    const answers: Record<string, unknown> = {
      ...ANSWERS,
      entities: {
        entities: [
          {
            type: 'gene',
            name: bad('a new gene'),
            role: 'mechanism',
            detail: { mention: bad('new gene'), dose: '\u0000' },
          },
        ],
      },
      claims: {
        claims: [
          {
            subject: bad('rapamycin'),
            relation: 'extends_lifespan',
            object: 'lifespan',
            organism: bad('Mus musculus'),
            direction: 'increase',
            magnitude: bad('12%'),
            context: { sex: bad('male') },
            evidence: 'Rapamycin extended\u0000 median lifespan by 12% and reduced SASP expression in the liver.',
            confidence: 0.9,
          },
        ],
      },
      story: {
        headline: bad('Rapamycin'),
        dek: bad('Dek.'),
        body: bad('Body.'),
        why_it_matters: bad('Why.'),
        caveats: bad('Caveats.'),
      },
      article: { summary: bad('S.'), key_points: [bad('k')], tags: [bad('t')] },
    }
    server.reset((task) => ({ json: answers[task] }))
    const id = await onePaper()
    const [source] = await database.db
      .insert(rssSources)
      .values({ name: 'NUL feed', url: 'https://example.org/nul-feed' })
      .returning()
    const [article] = await database.db
      .insert(articles)
      .values({ sourceId: source.id, guid: 'nul-1', title: 'News', summary: 'Mice.' })
      .returning()
    expect(await runAnalysis(database.db, analyzer())).toMatchObject({
      papers: 1,
      failed: 0,
      stories: 1,
      articles: 1,
      articles_failed: 0,
    })

    const [story] = await database.db.select().from(stories).where(eq(stories.paperId, id))
    expect(story).toMatchObject({
      headline: 'Rapamycin\ufffd',
      dek: 'Dek.\ufffd',
      body: 'Body.\ufffd',
      whyItMatters: 'Why.\ufffd',
      caveats: 'Caveats.\ufffd',
    })
    const linked = await database.db
      .select({ name: entities.name, detail: paperEntities.detail })
      .from(paperEntities)
      .innerJoin(entities, eq(entities.id, paperEntities.entityId))
      .where(eq(paperEntities.paperId, id))
    expect(linked).toEqual([{ name: 'a new gene\ufffd', detail: { mention: 'new gene\ufffd' } }])
    const [claim] = await database.db.select().from(claims).where(eq(claims.paperId, id))
    expect(claim).toMatchObject({
      subjectText: 'rapamycin\ufffd',
      organism: 'Mus musculus\ufffd',
      magnitude: '12%\ufffd',
      context: { sex: 'male\ufffd' },
      evidence: 'Rapamycin extended median lifespan by 12% and reduced SASP expression in the liver.',
    })
    const [analysis] = await database.db.select().from(articleAnalyses).where(eq(articleAnalyses.articleId, article.id))
    expect(analysis).toMatchObject({ summary: 'S.\ufffd', keyPoints: ['k\ufffd'], tags: ['t\ufffd'] })
  })

  test('token counts land in the job run record', async () => {
    server.reset((task) => valid(task))
    await onePaper()
    await recordRun(database.db, 'analyze', () => runAnalysis(database.db, analyzer()))
    const [run] = await database.db
      .select()
      .from(jobRuns)
      .where(eq(jobRuns.job, 'analyze'))
      .orderBy(sql`${jobRuns.id} desc`)
      .limit(1)
    expect(run.outcome).toBe('ok')
    expect(run.counts).toMatchObject({ papers: 1, prompt_tokens: 500, completion_tokens: 100 })
  })
})
