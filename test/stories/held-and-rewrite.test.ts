/**
 * Stories the support check scores 1 or less wait with the operators instead of being published, and a changed
 * judgement rewrites the story: through the admin interface (analysis runs, the held list, the rewrite) and the
 * Data API and site (what is published), with the model analyzer behind a local replay server.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { papers } from '../../src/db/schema'
import { useAdminApp } from '../support/admin'
import { testDriver } from '../support/database'
import { bearer, createTestKey, insertPapers, paperRow } from '../support/fixtures'
import { req } from '../support/app'
import { startReplayServer, type Reply } from '../analysis/replay-server'

const server = startReplayServer()
const api = useAdminApp({ LLM_BASE_URL: server.url, LLM_MODEL: 'test-model', LLM_CONCURRENCY: '1' })
let operator: string
let key: string
beforeAll(async () => {
  operator = (await api.operator()).token
  key = (await createTestKey(api.database.db, { tier: 'pro' })).key
})
afterAll(() => server.stop())

const unjudged = {
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
}

/** A randomised trial in adults whose background names yeast, as MED-1010000985 of the demo corpus does. */
const TRIAL = {
  title: 'Branched-chain amino acid restriction and healthspan in 412 adults: a randomised, placebo-controlled trial',
  abstract:
    'Reducing food intake without malnutrition extends lifespan in organisms from yeast to primates. ' +
    'In this randomised trial, 412 adults were assigned to branched-chain amino acid restriction or usual care for 24 weeks. ' +
    'After 24 weeks, healthspan rose by 8.0% with branched-chain amino acid restriction versus 0.7% with usual care (p = 0.004). ' +
    'These findings suggest that branched-chain amino acid restriction improves healthspan in older adults.',
}
/** A cohort study, first judged a trial, then (re-analysed) an observational study. */
const COHORT = {
  title: 'HbA1c and mortality in 20,990 participants',
  abstract:
    'We examined whether HbA1c predicts mortality in aging. We analysed 20,990 participants aged 55 to 85 years from a prospective cohort, ' +
    'with a median follow-up of 4.7 years. Each standard deviation increase in HbA1c was associated with a higher risk of mortality ' +
    '(HR 1.52, 95% CI 1.24–1.75). These findings suggest that HbA1c predicts mortality and biological aging.',
}

const judge = (studyType: string, newsworthiness: number) => ({
  relevance: [0, 0.05, 0.15, 0.8],
  relevance_confidence: 0.9,
  newsworthiness,
  study_type: studyType,
  study_type_confidence: 0.9,
  topic: 'dietary-restriction',
  topic_confidence: 0.8,
  promotional: 0.01,
})
const story = (headline: string, dek: string) => ({
  headline,
  dek,
  body: `${dek}\n\nThe abstract reports it.`,
  why_it_matters: 'Healthspan.',
  caveats: 'One study.',
})

function answer(answers: Record<string, unknown>): (task: string) => Reply {
  const defaults: Record<string, unknown> = {
    entities: { entities: [] },
    claims: { claims: [] },
    support: { support: 3, problems: [] },
  }
  return (task) => ({ json: answers[task] ?? defaults[task] })
}

async function analyse(paperId: string) {
  const response = await api.call('/api/analyze', { cookie: operator, body: { paper_ids: [paperId] } })
  expect(response.status).toBe(200)
  const { data } = (await response.json()) as { data: { failures: string[] } }
  expect(data.failures).toEqual([])
}
const held = async () => {
  const response = await api.call('/api/stories/held', { cookie: operator })
  expect(response.status).toBe(200)
  return (await response.json()) as {
    data: { paper_id: string; support: number; problems: string[]; headline: string; study_type: string }[]
    total: number
  }
}
const published = async () => {
  const response = await api.app.handle(req('/api/v1/stories?limit=100', bearer(key)))
  expect(response.status).toBe(200)
  return (
    (await response.json()) as {
      data: {
        paper_id: string
        headline: string
        dek: string
        body: string
        caveats: string
        model: string
        support: number
      }[]
    }
  ).data
}

describe(`held-back stories on ${testDriver}`, () => {
  test('a model story that puts a trial in adults in yeast is held back, shown to operators, and published once rewritten faithfully', async () => {
    const [paper] = await insertPapers(api.database.db, [
      paperRow({ ...TRIAL, ...unjudged, publicationTypes: ['Randomized Controlled Trial'] }),
    ])
    server.reset(
      answer({
        judge: judge('human_trial', 2.5),
        claims: {
          claims: [
            {
              subject: 'branched-chain amino acid restriction',
              relation: 'increases',
              object: 'healthspan',
              organism: 'Homo sapiens',
              direction: 'increase',
              magnitude: '8.0%',
              evidence:
                'After 24 weeks, healthspan rose by 8.0% with branched-chain amino acid restriction versus 0.7% with usual care (p = 0.004).',
              confidence: 0.9,
            },
          ],
        },
        story: story(
          'Branched-chain amino acid restriction raises healthspan in yeast',
          'A clinical trial in yeast looked at branched-chain amino acid restriction.',
        ),
      }),
    )
    await analyse(paper.id)
    // The model was told the judgement's words.
    expect(server.calls.find((c) => c.task === 'story')!.user).toContain('Call the study a randomised trial in people')

    const list = await held()
    const mine = list.data.find((s) => s.paper_id === paper.id)!
    expect(mine).toMatchObject({
      headline: 'Branched-chain amino acid restriction raises healthspan in yeast',
      study_type: 'human_trial',
    })
    expect(mine.support).toBeLessThanOrEqual(1)
    expect(mine.problems.join(' ')).toContain('yeast')
    expect(list.total).toBeGreaterThanOrEqual(1)

    // Nowhere published: the stories list, the paper's record, the site's story page and its feed.
    expect((await published()).map((s) => s.paper_id)).not.toContain(paper.id)
    const record = (await (await api.app.handle(req(`/api/v1/papers/${paper.id}`, bearer(key)))).json()) as {
      data: { story: unknown }
    }
    expect(record.data.story).toBeNull()
    expect((await api.app.handle(req(`/stories/${paper.id}`))).status).toBe(404)
    expect(await (await api.app.handle(req('/feed.xml'))).text()).not.toContain('in yeast')

    // The model writes it again in the judgement's words: published, and no longer held.
    server.reset(
      answer({
        judge: judge('human_trial', 2.5),
        story: story(
          'Branched-chain amino acid restriction raises healthspan in people',
          'A randomised trial in people looked at branched-chain amino acid restriction.',
        ),
      }),
    )
    await analyse(paper.id)
    expect((await held()).data.map((s) => s.paper_id)).not.toContain(paper.id)
    expect((await published()).find((s) => s.paper_id === paper.id)).toMatchObject({
      headline: 'Branched-chain amino acid restriction raises healthspan in people',
      support: 3,
    })
  })

  test('the held list refuses a bad limit and members', async () => {
    const bad = await api.call('/api/stories/held?limit=0', { cookie: operator })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'invalid_parameter',
    })
    const member = (await api.member()).token
    expect((await api.call('/api/stories/held', { cookie: member })).status).toBe(403)
    expect((await api.call('/api/stories/held')).status).toBe(401)
  })
})

describe(`stories rewritten when the judgement changes, on ${testDriver}`, () => {
  test('re-analysis that changes the judgement without a new story rewrites the story from it', async () => {
    const [paper] = await insertPapers(api.database.db, [
      paperRow({ ...COHORT, ...unjudged, publicationTypes: ['Journal Article'] }),
    ])
    server.reset(
      answer({
        judge: judge('human_trial', 2.5),
        story: story('HbA1c predicts mortality in people', 'A study in people finds HbA1c predicts mortality.'),
      }),
    )
    await analyse(paper.id)
    expect((await published()).find((s) => s.paper_id === paper.id)).toMatchObject({
      headline: 'HbA1c predicts mortality in people',
      model: 'test-model',
    })

    // Judged again: an observational study, no longer newsworthy enough for the model to write a story.
    server.reset(answer({ judge: judge('human_observational', 1) }))
    await analyse(paper.id)
    expect(server.calls.map((c) => c.task)).not.toContain('story')
    const rewritten = (await published()).find((s) => s.paper_id === paper.id)!
    expect(rewritten.model).toBe('geroscope-builtin-1')
    expect(rewritten.caveats).toContain('This is a cohort study in people.')
    expect(`${rewritten.headline} ${rewritten.dek} ${rewritten.body} ${rewritten.caveats}`).not.toMatch(/\btrial\b/i)
  })

  test("an editor's correction of the study type is followed by POST /api/stories/{paper_id}/rewrite", async () => {
    const [paper] = await insertPapers(api.database.db, [
      paperRow({ ...TRIAL, ...unjudged, publicationTypes: ['Randomized Controlled Trial'] }),
    ])
    server.reset(
      answer({
        judge: judge('human_trial', 2.5),
        story: story('Restriction raises healthspan in people', 'A randomised trial in people looked at restriction.'),
      }),
    )
    await analyse(paper.id)
    // An editor says it is a review (another branch's correction path); the story must follow.
    await api.database.db.update(papers).set({ studyType: 'review' }).where(eq(papers.id, paper.id))
    const response = await api.call(`/api/stories/${paper.id.toLowerCase()}/rewrite`, {
      cookie: operator,
      method: 'POST',
    })
    expect(response.status).toBe(200)
    const { data } = (await response.json()) as { data: { status: string; support: number } }
    expect(data.status).toBe('published')
    const rewritten = (await published()).find((s) => s.paper_id === paper.id)!
    expect(rewritten.caveats).toContain('This is a review.')
    expect(`${rewritten.dek} ${rewritten.caveats}`).not.toMatch(/\btrial\b|in people/)
  })

  test("an editor's correction through PUT /api/papers/{id}/judgement rewrites the story at once; accepting it as it stands does not", async () => {
    const [paper] = await insertPapers(api.database.db, [
      paperRow({ ...TRIAL, ...unjudged, publicationTypes: ['Randomized Controlled Trial'] }),
    ])
    server.reset(
      answer({
        judge: judge('human_trial', 2.5),
        story: story('Restriction raises healthspan in people', 'A randomised trial in people looked at restriction.'),
      }),
    )
    await analyse(paper.id)
    const put = (body: Record<string, unknown>) =>
      api.call(`/api/papers/${paper.id}/judgement`, { cookie: operator, method: 'PUT', body })
    // Accepted as it stands: the model's story stays.
    expect((await put({ study_type: 'human_trial' })).status).toBe(200)
    expect((await published()).find((s) => s.paper_id === paper.id)).toMatchObject({ model: 'test-model' })
    expect((await put({ study_type: 'review', note: 'a review of trials' })).status).toBe(200)
    const rewritten = (await published()).find((s) => s.paper_id === paper.id)!
    expect(rewritten.model).toBe('geroscope-builtin-1')
    expect(rewritten.caveats).toContain('This is a review.')
    expect(`${rewritten.dek} ${rewritten.caveats}`).not.toMatch(/\btrial\b|in people/)
  })

  test('a rewrite of a malformed or unknown paper id is refused', async () => {
    const bad = await api.call('/api/stories/not-a-paper/rewrite', { cookie: operator, method: 'POST' })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain('paper_id')
    expect((await api.call('/api/stories/MED-999999999999/rewrite', { cookie: operator, method: 'POST' })).status).toBe(
      404,
    )
  })
})
