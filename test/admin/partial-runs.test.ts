/**
 * A run that fails at part of its work and goes on with the rest says so: status `partial` with the
 * number of failures, in its answer, in job_runs and in GET /api/jobs, never `ok`. Here the model
 * is out (every call answers 503) while an analysis runs.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { jobRuns } from '../../src/db/schema'
import { useAdminApp } from '../support/admin'
import { insertPapers, paperRow } from '../support/fixtures'
import { replayServer } from '../support/replay-server'

const model = replayServer(() => Response.json({ error: 'upstream down' }, { status: 503 }))
const api = useAdminApp({ LLM_BASE_URL: model.url, LLM_MODEL: 'test-model', LLM_TIMEOUT_MS: '2000' })
let operator: string
beforeAll(async () => {
  operator = (await api.operator()).token
})
afterAll(async () => {
  await model.stop()
})

const call = (path: string, options: Parameters<typeof api.call>[1] = {}) =>
  api.call(path, { cookie: operator, ...options })

const unjudged = (id: string) =>
  paperRow({
    id,
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
const PARTIAL = 'the run went on past 2 failures (failed 2)'

describe('an analysis during a model outage', () => {
  test('is partial with its failure count in the answer, in job_runs and in GET /api/jobs', async () => {
    await insertPapers(api.database.db, ['MED-91', 'MED-92'].map(unjudged))
    const response = await call('/api/analyze', { body: { paper_ids: ['MED-91', 'MED-92'] } })
    expect(response.status).toBe(200)
    const { data } = await response.json()
    expect(data).toMatchObject({
      job: 'analyze',
      status: 'partial',
      failure_count: 2,
      counts: { papers: 0, failed: 2 },
    })
    expect(data.failures).toHaveLength(2)

    const [row] = await api.database.db.select().from(jobRuns).where(eq(jobRuns.id, data.run_id))
    expect(row).toMatchObject({ outcome: 'partial', error: PARTIAL })

    const listed = await (await call('/api/jobs?status=partial')).json()
    expect(listed.data).toEqual([
      expect.objectContaining({
        id: data.run_id,
        job: 'analyze',
        status: 'partial',
        failure_count: 2,
        error: PARTIAL,
      }),
    ])
    const ok = await (await call('/api/jobs?status=ok')).json()
    expect(ok.data.map((r: { id: number }) => r.id)).not.toContain(data.run_id)
  })
})
