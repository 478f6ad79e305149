/**
 * Editors in the loop through the admin interface: the review queue (GET /api/review), corrections
 * (PUT /api/papers/{id}/judgement) and their history, with what a correction must do elsewhere:
 * survive re-analysis, show at once on /api/v1 and in its change feed.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { executeRows } from '../../src/db/client'
import { judgementVersions, papers } from '../../src/db/schema'
import { queuePart } from '../../src/pipeline/judgements/queue'
import { useAdminApp } from '../support/admin'
import { req } from '../support/app'
import { bearer, createTestKey, insertPapers, paperRow } from '../support/fixtures'

const api = useAdminApp({ SESSION_IDLE_MINUTES: '1440', SESSION_MAX_HOURS: '720' }) // the clock moves by hours below
let operator: { id: number; username: string; token: string }
let member: { id: number; username: string; token: string }
let dataKey: string

const call = (path: string, options: Parameters<typeof api.call>[1] = {}) =>
  api.call(path, { cookie: operator.token, ...options })
const json = async (response: Response) => ({ status: response.status, body: await response.json() })
const invalid = (message: string) => ({
  status: 400,
  body: { error: { status: 400, code: 'invalid_parameter', message } },
})
const v1 = async (path: string) => (await api.app.handle(req(path, bearer(dataKey)))).json()

/** Ids in the audit sample, or not, found by asking the database's own rule. */
async function sampleIds(prefix: number, count: number, inSample: boolean): Promise<string[]> {
  const candidates = Array.from({ length: 2000 }, (_, i) => `MED-${prefix + i}`)
  const rows = await executeRows<{ id: string }>(
    api.database.db,
    sql`
    select id from unnest(${sql.param(candidates)}::text[]) as c(id) where geroscope_review_audit(id) = ${inSample} order by id`,
  )
  return rows.map((r) => r.id).slice(0, count)
}

const judged = (id: string, rc: number | null, st: number, tc: number, extra: Parameters<typeof paperRow>[0] = {}) =>
  paperRow({ id, relevanceConfidence: rc, studyTypeConfidence: st, topicConfidence: tc, ...extra })

// The queue of this file's corpus, in the order GET /api/review must give it.
let queue: { id: string; reason: string; confidence: number }[]
let ids: Record<string, string>

beforeAll(async () => {
  api.clock.set('2026-11-28T10:00:00Z')
  operator = await api.operator()
  member = await api.member()
  dataKey = (await createTestKey(api.database.db, { tier: 'pro' })).key
  const plain = await sampleIds(51_000_000, 12, false)
  const audit = await sampleIds(51_000_000, 4, true)
  ids = {
    zero: plain[0],
    lowA: plain[1],
    lowB: plain[2],
    lowC: plain[3],
    sure: plain[4],
    atThreshold: plain[5],
    corrected: plain[6],
    unjudged: audit[3],
    auditLow: audit[0],
    auditA: audit[1],
    auditB: audit[2],
    review: plain[7],
    fresh: plain[8],
  }
  await insertPapers(api.database.db, [
    judged(ids.zero, null, 0.9, 0.9), // a missing confidence counts as 0
    judged(ids.lowB, 0.9, 0.3, 0.8, { studyType: 'review' }),
    judged(ids.lowA, 0.3, 0.9, 0.8), // same lowest confidence as lowB: id order
    judged(ids.lowC, 0.9, 0.9, 0.55, { topic: 'senescence' }),
    judged(ids.sure, 0.9, 0.95, 0.8),
    judged(ids.atThreshold, 0.6, 0.9, 0.9), // not below
    judged(ids.corrected, 1, 1, 1, { judgementModel: 'editor', judgementPromptVersion: null }),
    judged(ids.auditLow, 0.2, 0.9, 0.9), // in the sample but queued for its confidence, once
    judged(ids.auditA, 0.9, 0.9, 0.9, { topic: 'senescence' }),
    judged(ids.auditB, 0.99, 0.7, 0.9),
    paperRow({
      id: ids.unjudged,
      relevance: null,
      relevanceConfidence: null,
      studyType: null,
      studyTypeConfidence: null,
      topic: null,
      topicConfidence: null,
      judgementModel: null,
      judgementPromptVersion: null,
      judgedAt: null,
      extractedAt: null,
    }),
  ])
  queue = [
    { id: ids.zero, reason: 'low_confidence', confidence: 0 },
    { id: ids.auditLow, reason: 'low_confidence', confidence: 0.2 },
    ...[ids.lowA, ids.lowB].sort().map((id) => ({ id, reason: 'low_confidence', confidence: 0.3 })),
    { id: ids.lowC, reason: 'low_confidence', confidence: 0.55 },
    ...[
      { id: ids.auditA, confidence: 0.9 },
      { id: ids.auditB, confidence: 0.7 },
    ]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((a) => ({ ...a, reason: 'audit' })),
  ]
})

const brief = (items: { paper: { id: string }; reason: string; confidence: number }[]) =>
  items.map((i) => ({ id: i.paper.id, reason: i.reason, confidence: i.confidence }))

describe('GET /api/review', () => {
  test('lists the least confident judgements first, then the audit sample in id order, each with its paper and judgement', async () => {
    const { status, body } = await json(await call('/api/review'))
    expect(status).toBe(200)
    expect(brief(body.data)).toEqual(queue)
    expect(body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 25 })
    const item = body.data.find((i: { paper: { id: string } }) => i.paper.id === ids.lowC)
    expect(item).toEqual({
      paper: {
        id: ids.lowC,
        title: expect.any(String),
        journal: 'Aging Cell',
        published_date: '2026-10-01',
        url: expect.stringMatching(/^https:\/\/doi\.org\//),
        publication_types: ['Journal Article'],
        abstract: expect.stringContaining('Rapamycin'),
      },
      judgement: {
        relevance: 2.6,
        relevance_confidence: 0.9,
        study_type: 'animal',
        study_type_confidence: 0.9,
        topic: 'senescence',
        topic_confidence: 0.55,
        newsworthiness: 1,
        model: 'geroscope-builtin-1',
        prompt_version: 'judge-v1',
        judged_at: '2026-10-02T06:00:00.000Z',
      },
      reason: 'low_confidence',
      confidence: 0.55,
    })
  })

  test('filters by reason, topic and study type', async () => {
    const only = async (query: string) =>
      brief((await json(await call(`/api/review?${query}`))).body.data).map((i) => i.id)
    expect(await only('reason=audit')).toEqual(queue.filter((i) => i.reason === 'audit').map((i) => i.id))
    expect(await only('reason=low_confidence')).toEqual(
      queue.filter((i) => i.reason === 'low_confidence').map((i) => i.id),
    )
    expect(await only('reason=audit,low_confidence')).toEqual(queue.map((i) => i.id))
    expect(await only('topic=senescence')).toEqual([ids.lowC, ids.auditA])
    expect(await only('study_type=review')).toEqual([ids.lowB])
    expect(await only('study_type=review,animal&topic=mtor-rapamycin&reason=audit')).toEqual([ids.auditB])
    expect(await only('topic=glp-1')).toEqual([])
  })

  test('pages by an opaque cursor through both parts, in the same order', async () => {
    for (const limit of [1, 2, 3]) {
      const seen: ReturnType<typeof brief> = []
      let cursor: string | null = null
      do {
        const page: { status: number; body: any } = await json(
          await call(`/api/review?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`),
        ) // eslint-disable-line @typescript-eslint/no-explicit-any
        expect(page.status).toBe(200)
        expect(page.body.data.length).toBeLessThanOrEqual(limit)
        expect(page.body.pagination.limit).toBe(limit)
        seen.push(...brief(page.body.data))
        cursor = page.body.pagination.next_cursor
        expect(page.body.pagination.has_more).toBe(cursor !== null)
      } while (cursor)
      expect(seen).toEqual(queue)
    }
  })

  test.each([
    ['reason=urgent', 'reason has unknown value "urgent"; allowed: low_confidence, audit'],
    [
      'topic=horoscopes',
      `topic has unknown value "horoscopes"; allowed: senescence, epigenetic-clocks, mtor-rapamycin, reprogramming, nad-sirtuins, mitochondria, dietary-restriction, glp-1, inflammaging, brain-aging, other`,
    ],
    [
      'study_type=anecdote',
      'study_type has unknown value "anecdote"; allowed: human_trial, human_observational, animal, invertebrate, cells, computational, review, other',
    ],
    ['limit=0', 'limit must be an integer from 1 to 100 (got "0")'],
    ['limit=101', 'limit must be an integer from 1 to 100 (got "101")'],
    ['cursor=abc.def', 'cursor is not a cursor this API issued (bad signature)'],
    ['sort=id', 'unknown parameter "sort"; this endpoint takes reason, topic, study_type, cursor, limit'],
  ])('refuses %s with a 400 naming the parameter', async (query, message) => {
    expect(await json(await call(`/api/review?${query}`))).toEqual(invalid(message))
  })

  test('a cursor is bound to its filters', async () => {
    const first = (await json(await call('/api/review?limit=1&reason=low_confidence'))).body
    expect(await json(await call(`/api/review?limit=1&cursor=${first.pagination.next_cursor}`))).toEqual(
      invalid('cursor was made with other filters; repeat the request with the same parameters (limit aside)'),
    )
  })

  test('both parts are read from their partial indexes', async () => {
    const explain = async (part: 'low_confidence' | 'audit', after: Parameters<typeof queuePart>[4]) =>
      api.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`) // a table this small would be read whole otherwise
        const rows = await executeRows<{ 'QUERY PLAN': string }>(
          tx,
          sql`explain ${queuePart(tx, part, 0.6, { topics: ['senescence'] }, after, 26).getSQL()}`,
        )
        return rows.map((r) => r['QUERY PLAN']).join('\n')
      })
    const low = await explain('low_confidence', { reason: 'low_confidence', confidence: 0.3, id: 'MED-1' })
    expect(low).toContain('papers_review_queue_idx')
    expect(low).not.toContain('Sort') // the index gives the order
    const audit = await explain('audit', { reason: 'audit', id: 'MED-1' })
    expect(audit).toContain('papers_review_audit_idx')
    expect(audit).not.toContain('Sort')
  })

  test('the audit sample is about 2% of ids, by the first 32 bits of their MD5 (stable anywhere)', async () => {
    const candidates = Array.from({ length: 20_000 }, (_, i) => `MED-${30_000_000 + i * 7}`)
    const rows = await executeRows<{ id: string }>(
      api.database.db,
      sql`
      select id from unnest(${sql.param(candidates)}::text[]) as c(id) where geroscope_review_audit(id) order by id`,
    )
    const byMd5 = candidates.filter((id) => createHash('md5').update(id).digest().readInt32BE(0) % 50 === 0).sort()
    expect(rows.map((r) => r.id)).toEqual(byMd5)
    expect(byMd5.length / candidates.length).toBeGreaterThan(0.015)
    expect(byMd5.length / candidates.length).toBeLessThan(0.025)
  })
})

describe('who may', () => {
  test('members get 403, callers without a session 401, on all three routes', async () => {
    const routes: [string, string, unknown][] = [
      ['GET', '/api/review', undefined],
      ['PUT', `/api/papers/${ids.sure}/judgement`, { relevance: 0 }],
      ['GET', `/api/papers/${ids.sure}/judgement/history`, undefined],
    ]
    for (const [method, path, body] of routes) {
      const asMember = await json(await api.call(path, { method, body, cookie: member.token }))
      expect({ path, ...asMember }).toEqual({
        path,
        status: 403,
        body: { error: { status: 403, code: 'forbidden', message: 'this endpoint is for operators' } },
      })
      const anonymous = await json(await api.call(path, { method, body }))
      expect({ path, status: anonymous.status, code: anonymous.body.error.code }).toEqual({
        path,
        status: 401,
        code: 'unauthenticated',
      })
    }
    const [row] = await api.database.db
      .select({ model: papers.judgementModel })
      .from(papers)
      .where(eq(papers.id, ids.sure))
    expect(row.model).toBe('geroscope-builtin-1')
  })

  test('a correction from another site is refused and changes nothing', async () => {
    const response = await json(
      await call(`/api/papers/${ids.sure}/judgement`, {
        method: 'PUT',
        body: { relevance: 0 },
        headers: { origin: 'https://evil.test' },
      }),
    )
    expect(response).toEqual({
      status: 403,
      body: {
        error: {
          status: 403,
          code: 'forbidden',
          message: "cross-site request refused: Origin https://evil.test is not this service's",
        },
      },
    })
    const [row] = await api.database.db
      .select({ model: papers.judgementModel, relevance: papers.relevance })
      .from(papers)
      .where(eq(papers.id, ids.sure))
    expect(row).toEqual({ model: 'geroscope-builtin-1', relevance: 2.6 })
  })
})

describe('PUT /api/papers/{id}/judgement', () => {
  test("answers the editor's judgement and the previous one, and takes the paper out of the queue", async () => {
    api.clock.set('2026-11-28T11:00:00Z')
    const { status, body } = await json(
      await call(`/api/papers/${ids.lowA}/judgement`, {
        method: 'PUT',
        body: { relevance: 1.234, topic: 'senescence', note: 'Senescence markers, not lifespan.' },
      }),
    )
    expect(status).toBe(200)
    expect(body).toEqual({
      data: {
        paper_id: ids.lowA,
        judgement: {
          relevance: 1.23,
          relevance_confidence: 1,
          study_type: 'animal',
          study_type_confidence: 1,
          topic: 'senescence',
          topic_confidence: 1,
          newsworthiness: 1,
          model: 'editor',
          prompt_version: null,
          judged_at: '2026-11-28T11:00:00.000Z',
        },
        previous: {
          relevance: 2.6,
          relevance_confidence: 0.3,
          study_type: 'animal',
          study_type_confidence: 0.9,
          topic: 'mtor-rapamycin',
          topic_confidence: 0.8,
          newsworthiness: 1,
          model: 'geroscope-builtin-1',
          prompt_version: 'judge-v1',
          judged_at: '2026-10-02T06:00:00.000Z',
        },
      },
    })
    const after = brief((await json(await call('/api/review'))).body.data)
    expect(after).toEqual(queue.filter((i) => i.id !== ids.lowA))
  })

  test('shows at once on /api/v1, in the paper, in lists and in the change feed', async () => {
    const id = ids.lowB
    const path = `/api/v1/papers/${id}`
    const list = `/api/v1/papers?min_relevance=0&study_type=review`
    expect((await v1(path)).data.judgement.model).toBe('geroscope-builtin-1') // now cached
    expect((await v1(list)).data.map((p: { judgement: { model: string } }) => p.judgement.model)).toEqual([
      'geroscope-builtin-1',
    ])
    const since = new Date(Date.now() - 1000).toISOString()
    api.clock.set('2026-11-28T11:05:00Z')
    const put = await call(`/api/papers/${id}/judgement`, {
      method: 'PUT',
      body: { relevance: 0.5, newsworthiness: 0 },
    })
    expect(put.status).toBe(200)

    const editor = {
      relevance: 0.5,
      relevance_confidence: 1,
      study_type_confidence: 1,
      topic_confidence: 1,
      newsworthiness: 0,
      model: 'editor',
      prompt_version: 'editor',
      judged_at: '2026-11-28T11:05:00.000Z',
    }
    expect((await v1(path)).data.judgement).toMatchObject(editor) // the next request, no waiting
    expect((await v1(list)).data.map((p: { judgement: unknown }) => p.judgement)).toEqual([
      expect.objectContaining(editor),
    ])
    // Below the default min_relevance=2 now: the default list drops it.
    expect((await v1('/api/v1/papers?study_type=review')).data).toEqual([])

    const changes = await v1(`/api/v1/changes?updated_since=${since}&type=paper`)
    expect(changes.data).toContainEqual({ type: 'paper', id, deleted: false, changed_at: expect.any(String) })
    const feed = await v1(`/api/v1/papers?updated_since=${since}&min_relevance=0`)
    expect(feed.data.find((p: { id: string }) => p.id === id)?.judgement).toMatchObject(editor)
    const defaultFeed = await v1(`/api/v1/papers?updated_since=${since}`)
    expect(defaultFeed.data.find((p: { id: string }) => p.id === id)).toMatchObject({
      id,
      deleted: true,
      reason: 'excluded',
    })
  })

  test('keeps every version with who and when, newest first', async () => {
    const id = ids.auditB
    api.clock.set('2026-11-28T12:00:00Z')
    expect(
      (
        await call(`/api/papers/${id}/judgement`, {
          method: 'PUT',
          body: { study_type: 'cells', note: 'In vitro only.' },
        })
      ).status,
    ).toBe(200)
    api.clock.set('2026-11-28T12:30:00Z')
    const second = await json(await call(`/api/papers/${id}/judgement`, { method: 'PUT', body: { relevance: 3 } }))
    expect(second.body.data.previous).toMatchObject({
      model: 'editor',
      study_type: 'cells',
      judged_at: '2026-11-28T12:00:00.000Z',
    })
    expect(second.body.data.judgement).toMatchObject({ relevance: 3, study_type: 'cells', model: 'editor' })

    const history = await json(await call(`/api/papers/${id}/judgement/history`))
    expect(history.status).toBe(200)
    const by = { id: operator.id, username: operator.username }
    expect(history.body.data).toEqual([
      {
        version: 3,
        judgement: expect.objectContaining({ relevance: 3, study_type: 'cells', model: 'editor' }),
        note: null,
        by,
        at: '2026-11-28T12:30:00.000Z',
      },
      {
        version: 2,
        judgement: expect.objectContaining({ relevance: 2.6, study_type: 'cells', model: 'editor' }),
        note: 'In vitro only.',
        by,
        at: '2026-11-28T12:00:00.000Z',
      },
      {
        version: 1,
        note: null,
        by: null,
        at: '2026-10-02T06:00:00.000Z',
        judgement: {
          relevance: 2.6,
          relevance_confidence: 0.99,
          study_type: 'animal',
          study_type_confidence: 0.7,
          topic: 'mtor-rapamycin',
          topic_confidence: 0.9,
          newsworthiness: 1,
          model: 'geroscope-builtin-1',
          prompt_version: 'judge-v1',
          judged_at: '2026-10-02T06:00:00.000Z',
        },
      },
    ])
  })

  test('a paper never judged needs relevance, study type and topic, and has no previous judgement', async () => {
    const path = `/api/papers/${ids.unjudged}/judgement`
    expect(await json(await call(path, { method: 'PUT', body: { relevance: 2 } }))).toEqual(
      invalid(
        'the paper has no judgement yet, so study_type, topic must be given too (a first judgement needs relevance, study_type and topic)',
      ),
    )
    const { status, body } = await json(
      await call(path, { method: 'PUT', body: { relevance: 2, study_type: 'human_trial', topic: 'glp-1' } }),
    )
    expect(status).toBe(200)
    expect(body.data.previous).toBeNull()
    expect(body.data.judgement).toMatchObject({
      relevance: 2,
      study_type: 'human_trial',
      topic: 'glp-1',
      newsworthiness: 0,
      model: 'editor',
    })
    expect((await json(await call(`${path}/history`))).body.data).toHaveLength(1)
  })

  test("re-analysis keeps the correction and records the analysis's versions for the others", async () => {
    const corrected = ids.lowC
    expect(
      (await call(`/api/papers/${corrected}/judgement`, { method: 'PUT', body: { topic: 'other', relevance: 0 } }))
        .status,
    ).toBe(200)
    const before = (await json(await call(`/api/papers/${corrected}/judgement/history`))).body.data
    // Analysed again by name (as an operator's re-analysis) and as pending work (text re-extracted).
    const named = await json(await call('/api/analyze', { body: { paper_ids: [corrected, ids.zero] } }))
    expect(named.status).toBe(200)
    expect(named.body.data.counts).toMatchObject({ papers: 2, failed: 0 })
    await api.database.db.update(papers).set({ extractedAt: null }).where(eq(papers.id, corrected))
    const pending = await json(await call('/api/analyze', { body: {} }))
    expect(pending.body.data.counts.papers).toBeGreaterThanOrEqual(1)

    const [row] = await api.database.db.select().from(papers).where(eq(papers.id, corrected))
    expect(row).toMatchObject({
      judgementModel: 'editor',
      relevance: 0,
      topic: 'other',
      relevanceConfidence: 1,
      judgementPromptVersion: null,
    })
    expect(row.extractedAt).not.toBeNull() // entities and claims are still extracted
    expect((await json(await call(`/api/papers/${corrected}/judgement/history`))).body.data).toEqual(before)

    const other = (await json(await call(`/api/papers/${ids.zero}/judgement/history`))).body.data
    expect(other).toHaveLength(1) // written by the analysis in the same statement as the judgement
    expect(other[0]).toMatchObject({ version: 1, by: null, note: null, judgement: { model: 'geroscope-builtin-1' } })
    expect(other[0].judgement.prompt_version).not.toBeNull()
  })

  test.each([
    ['relevance must be from 0 to 3 (got 3.5)', { relevance: 3.5 }],
    ['relevance must be from 0 to 3 (got -0.1)', { relevance: -0.1 }],
    ['relevance must be a number (got string)', { relevance: '2' }],
    ['relevance must be a number (got null)', { relevance: null }],
    ['newsworthiness must be from 0 to 3 (got 4)', { newsworthiness: 4 }],
    [
      'study_type must be one of human_trial, human_observational, animal, invertebrate, cells, computational, review, other (got "anecdote")',
      { study_type: 'anecdote' },
    ],
    [
      'topic must be one of senescence, epigenetic-clocks, mtor-rapamycin, reprogramming, nad-sirtuins, mitochondria, dietary-restriction, glp-1, inflammaging, brain-aging, other (got "Senescence")',
      { topic: 'Senescence' },
    ],
    ['note must be at most 2,000 characters long (got 2,001)', { relevance: 1, note: 'x'.repeat(2001) }],
    ['note must be a string (got number)', { relevance: 1, note: 7 }],
    [
      'unknown field "model"; this endpoint takes relevance, study_type, topic, newsworthiness, note',
      { relevance: 1, model: 'gpt' },
    ],
    ['give at least one of relevance, study_type, topic, newsworthiness', {}],
    ['give at least one of relevance, study_type, topic, newsworthiness', { note: 'only a note' }],
    ['the body must be a JSON object (got array)', [1]],
  ])('refuses with "%s", changing nothing', async (message, body) => {
    expect(await json(await call(`/api/papers/${ids.sure}/judgement`, { method: 'PUT', body }))).toEqual(
      invalid(message),
    )
    const [row] = await api.database.db
      .select({ model: papers.judgementModel })
      .from(papers)
      .where(eq(papers.id, ids.sure))
    expect(row.model).toBe('geroscope-builtin-1')
    expect(
      await api.database.db.select().from(judgementVersions).where(eq(judgementVersions.paperId, ids.sure)),
    ).toEqual([])
  })

  test('an unknown paper is a 404, a malformed id in the path a 400', async () => {
    const notFound = {
      status: 404,
      body: { error: { status: 404, code: 'not_found', message: 'no paper with id "MED-1"' } },
    }
    expect(await json(await call('/api/papers/MED-1/judgement', { method: 'PUT', body: { relevance: 1 } }))).toEqual(
      notFound,
    )
    expect(await json(await call('/api/papers/MED-1/judgement/history'))).toEqual(notFound)
    for (const bad of ['%ff', 'MED-%c0%af', '%ed%a0%80']) {
      expect(await json(await call(`/api/papers/${bad}/judgement`, { method: 'PUT', body: { relevance: 1 } }))).toEqual(
        invalid('id in the path is not valid percent-encoded UTF-8'),
      )
      expect(await json(await call(`/api/papers/${bad}/judgement/history`))).toEqual(
        invalid('id in the path is not valid percent-encoded UTF-8'),
      )
    }
    expect(await json(await call(`/api/papers/${'M'.repeat(201)}/judgement/history`))).toEqual(
      invalid('id in the path must be a paper id such as MED-39172536 (1 to 200 characters, no NUL)'),
    )
  })
})
