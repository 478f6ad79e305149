import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DEFAULT_PROMPTS } from '../../src/pipeline/prompts/defaults'
import { startReplayServer, type ReplayServer } from '../analysis/replay-server'
import { useAdminApp } from '../support/admin'
import { insertPapers, paperRow } from '../support/fixtures'

// The model is a local OpenAI-compatible server (test/analysis/replay-server.ts); it must exist
// before the app reads its URL from the configuration.
const llm: ReplayServer = startReplayServer()
const api = useAdminApp({ LLM_BASE_URL: llm.url, LLM_MODEL: 'test-model', LLM_TIMEOUT_MS: '5000' })
let operator: { id: number; username: string; token: string }
beforeAll(async () => {
  api.clock.set('2026-11-27T10:00:00Z') // and there it stays: the test clock moves only when told
  operator = await api.operator()
})
afterAll(() => llm.stop())

const call = (path: string, options: Parameters<typeof api.call>[1] = {}) =>
  api.call(path, { cookie: operator.token, ...options })
const json = async (response: Response) => ({ status: response.status, body: await response.json() })
const invalid = (message: string) => ({
  status: 400,
  body: { error: { status: 400, code: 'invalid_parameter', message } },
})

describe('GET /api/prompts', () => {
  test("lists every task's prompt at its current version", async () => {
    const { status, body } = await json(await call('/api/prompts'))
    expect(status).toBe(200)
    expect(body.data.map((p: { id: string }) => p.id)).toEqual(DEFAULT_PROMPTS.map((p) => p.id).sort())
    const judge = body.data.find((p: { id: string }) => p.id === 'judge')
    const original = DEFAULT_PROMPTS.find((p) => p.id === 'judge')!
    expect(judge).toEqual({
      id: 'judge',
      name: original.name,
      description: original.description,
      version: 1,
      text: original.body,
      updated_at: expect.any(String),
    })
  })
})

describe('PUT /api/prompts/{id}', () => {
  test('makes a new version, keeps the history, and the next model call sends the new text', async () => {
    const text = '[task:judge] Judge the paper strictly; answer in JSON.'
    const operatorNow = operator
    const updated = await json(
      await api.call('/api/prompts/judge', { method: 'PUT', body: { text }, cookie: operatorNow.token }),
    )
    expect(updated.status).toBe(200)
    expect(updated.body.data).toMatchObject({
      id: 'judge',
      version: 2,
      text,
      updated_at: '2026-11-27T10:00:00.000Z',
      changed: true,
    })

    const detail = (await json(await api.call('/api/prompts/judge', { cookie: operatorNow.token }))).body.data
    expect(detail.versions).toEqual([
      {
        version: 2,
        text,
        created_at: '2026-11-27T10:00:00.000Z',
        created_by: { id: operatorNow.id, username: operatorNow.username },
      },
      {
        version: 1,
        text: DEFAULT_PROMPTS.find((p) => p.id === 'judge')!.body,
        created_at: expect.any(String),
        created_by: null,
      },
    ])

    await insertPapers(api.database.db, [
      paperRow({
        id: 'MED-5151',
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
    ])
    llm.reset((task) =>
      task === 'judge'
        ? {
            json: {
              relevance: [0.9, 0.1, 0, 0],
              relevance_confidence: 0.9,
              newsworthiness: 0,
              study_type: 'other',
              study_type_confidence: 0.5,
              topic: 'other',
              topic_confidence: 0.5,
              promotional: 0,
            },
          }
        : { json: { entities: [], claims: [] } },
    )
    const run = await json(
      await api.call('/api/analyze', { body: { paper_ids: ['MED-5151'] }, cookie: operatorNow.token }),
    )
    expect(run.status).toBe(200)
    expect(run.body.data.analyzer).toBe('test-model')
    const judgeCalls = llm.calls.filter((c) => c.task === 'judge')
    expect(judgeCalls).toHaveLength(1)
    expect(judgeCalls[0].system).toBe(text)
  })

  test('the current text again changes nothing', async () => {
    const current = (await json(await call('/api/prompts/story'))).body.data
    const again = await json(await call('/api/prompts/story', { method: 'PUT', body: { text: current.text } }))
    expect(again.body.data).toMatchObject({ version: current.version, changed: false })
    expect((await json(await call('/api/prompts/story'))).body.data.versions).toHaveLength(current.versions.length)
  })

  test.each([
    [{ text: '' }, 'text must not be empty'],
    [{ text: '   \n ' }, 'text must not be empty'],
    [{ text: 'x'.repeat(20_001) }, 'text must be at most 20,000 characters long (got 20,001)'],
    [{ text: 42 }, 'text must be a string (got number)'],
    [{}, 'missing field "text"'],
    [{ text: 'ok', version: 3 }, 'unknown field "version"; this endpoint takes text'],
  ])('refuses %p', async (body, message) => {
    expect(await json(await call('/api/prompts/support', { method: 'PUT', body }))).toEqual(invalid(message))
  })

  test('8 edits at once are all saved, one version each, none lost', async () => {
    const before = (await json(await call('/api/prompts/story'))).body.data.version
    const texts = Array.from({ length: 8 }, (_, i) => `[task:story] Concurrent edit ${i}.`)
    const answers = await Promise.all(
      texts.map((text) => call('/api/prompts/story', { method: 'PUT', body: { text } }).then(json)),
    )
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200))
    expect(answers.map((a) => a.body.data.version).sort((a: number, b: number) => a - b)).toEqual(
      texts.map((_, i) => before + 1 + i),
    )
    const detail = (await json(await call('/api/prompts/story'))).body.data
    expect(detail.version).toBe(before + 8)
    const saved = detail.versions.filter((v: { version: number }) => v.version > before)
    expect(saved.map((v: { text: string }) => v.text).sort()).toEqual([...texts].sort())
    // The current text is the one of the edit that became the last version.
    expect(detail.text).toBe(answers.find((a) => a.body.data.version === before + 8)!.body.data.text)
  })

  test('an unknown prompt is a 404, read or written', async () => {
    for (const method of ['GET', 'PUT']) {
      const response = await json(
        await call('/api/prompts/horoscope', { method, body: method === 'PUT' ? { text: 'x' } : undefined }),
      )
      expect(response).toEqual({
        status: 404,
        body: { error: { status: 404, code: 'not_found', message: 'no prompt "horoscope"' } },
      })
    }
  })
})
