/**
 * A local OpenAI-compatible chat-completions server for tests. Each test sets `respond`, which sees
 * the task (known from the system prompt) and how many requests that task has had, and returns what
 * the model "says": a JSON answer, raw text, an HTTP status, or a delay.
 */
import { afterAll, beforeAll } from 'bun:test'
import { DEFAULT_PROMPTS } from '../../src/pipeline/prompts/defaults'
import { freshDatabase, type TestDatabase } from '../support/database'

export type Reply = {
  json?: unknown
  text?: string
  status?: number
  headers?: Record<string, string>
  delayMs?: number
}
export type Responder = (task: string, n: number, user: string) => Reply

export type ReplayServer = {
  url: string
  respond: Responder
  calls: { task: string; system: string; user: string; authorization: string | null }[]
  maxInFlight: number
  reset(respond: Responder): void
  stop(): void
}

function taskOf(system: string): string {
  const byBody = DEFAULT_PROMPTS.find((p) => p.body === system)
  if (byBody) return byBody.id
  const tagged = system.match(/^\[task:(\w+)\]/) // edited prompts in tests start with their task
  return tagged?.[1] ?? 'unknown'
}

export function startReplayServer(): ReplayServer {
  const counts = new Map<string, number>()
  // Requests left over from an earlier test (a timed-out one still sleeping) do not count against the next.
  let generation = 0
  let inFlight = 0
  const state: ReplayServer = {
    url: '',
    respond: () => ({ status: 500 }),
    calls: [],
    maxInFlight: 0,
    reset(respond) {
      state.respond = respond
      state.calls = []
      state.maxInFlight = 0
      generation++
      inFlight = 0
      counts.clear()
    },
    stop: () => server.stop(true),
  }
  const server = Bun.serve({
    port: 0,
    async fetch(request) {
      if (new URL(request.url).pathname !== '/v1/chat/completions') return new Response('not found', { status: 404 })
      const mine = generation
      inFlight++
      state.maxInFlight = Math.max(state.maxInFlight, inFlight)
      try {
        const body = (await request.json()) as { messages: { role: string; content: string }[] }
        const task = taskOf(body.messages[0].content)
        const user = body.messages[1].content
        const n = (counts.get(task) ?? 0) + 1
        counts.set(task, n)
        state.calls.push({
          task,
          system: body.messages[0].content,
          user,
          authorization: request.headers.get('authorization'),
        })
        const reply = state.respond(task, n, user)
        if (reply.delayMs) await Bun.sleep(reply.delayMs)
        if (reply.status && reply.status !== 200)
          return new Response('{"error":{"message":"scripted"}}', { status: reply.status, headers: reply.headers })
        const content = reply.text ?? JSON.stringify(reply.json)
        return Response.json({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          model: 'test-model',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
        })
      } finally {
        if (mine === generation) inFlight--
      }
    },
  })
  state.url = `http://127.0.0.1:${server.port}/v1`
  return state
}

/** A file's own database and replay server, opened before its tests and closed after; `use` receives both. */
export function useDatabaseAndReplay(use: (database: TestDatabase, server: ReplayServer) => void): void {
  let database: TestDatabase
  let server: ReplayServer
  beforeAll(async () => {
    database = await freshDatabase()
    server = startReplayServer()
    use(database, server)
  })
  afterAll(async () => {
    server.stop()
    await database.close()
  })
}
