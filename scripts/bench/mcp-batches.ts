/**
 * Load from MCP clients for scripts/soak-memory.ts: JSON-RPC batches of tools/call messages on
 * POST /api/v1/mcp, each message counting as one request against its key (src/modules/v1/mcp/batch.ts),
 * so the memory a batch can make is part of the soak. Each client sends one batch after another,
 * rotating keys and tools; answers are read whole and tallied, server errors (an HTTP 5xx, a JSON-RPC
 * internal error, a tool answering 5xx) kept as samples.
 */

export type ToolCall = { name: string; arguments: Record<string, unknown> }

export type McpTally = {
  batches: number
  messages: number
  answered: number // a result, the tool's own 4xx included
  refused: number // a JSON-RPC error for the message: 429 past the allowance, 413 past the answer cap
  serverErrors: number
  httpStatuses: Record<string, number>
  samples: string[]
}

export type LoadLoop<T> = { tally: T; stop: () => Promise<void> }

/** A varied list of tool calls over the corpus's papers, words and entities (unknown ones included). */
export function mcpCalls(ids: string[], words: string[], entities: { type: string; key: string }[]): ToolCall[] {
  const calls: ToolCall[] = [
    { name: 'get_stats', arguments: {} },
    { name: 'list_stories', arguments: { limit: 20 } },
  ]
  for (let i = 0; i < Math.max(ids.length, words.length, entities.length) && calls.length < 5000; i++) {
    const id = ids[i % ids.length]
    const word = words[i % words.length]
    const entity = entities[i % entities.length]
    calls.push({ name: 'get_paper', arguments: { id } })
    calls.push({ name: 'search_papers', arguments: { q: word, limit: 1 + (i % 50) } })
    const several = Array.from({ length: 1 + (i % 20) }, (_, k) => ids[(i + k * 13) % ids.length])
    calls.push({ name: 'get_papers', arguments: { ids: several } })
    calls.push({ name: 'find_entities', arguments: { q: word.slice(0, 4) } })
    calls.push({ name: 'get_entity', arguments: { type: entity.type, key: entity.key, limit: 1 + (i % 30) } })
    calls.push({ name: 'list_claims', arguments: { subject: word, ...(i % 3 ? {} : { count: true }) } })
    // A 404 inside a result, as careless clients get.
    if (i % 10 === 0) calls.push({ name: 'get_paper', arguments: { id: `MED-${900000000 + i}` } })
  }
  return calls
}

type Answer = {
  id?: number
  result?: { isError?: boolean; content?: { text?: string }[] }
  error?: { code: number; message: string; data?: { status?: number } }
}

// The Streamable HTTP transport asks a POST to accept both answer forms.
const MCP_ACCEPT = 'application/json, text/event-stream'

const sampled = (tally: McpTally, line: string) => {
  if (tally.samples.length < 5) tally.samples.push(line.slice(0, 240))
}

function tallyAnswers(tally: McpTally, answers: Answer[]): void {
  for (const a of answers) {
    if (a.error) {
      const status = a.error.data?.status ?? 0
      if (status >= 500 || a.error.code === -32603) {
        tally.serverErrors++
        sampled(tally, `JSON-RPC error ${a.error.code}: ${a.error.message}`)
      } else tally.refused++
      continue
    }
    tally.answered++
    const text = a.result?.content?.[0]?.text ?? ''
    if (a.result?.isError && /^5\d\d /.test(text)) {
      tally.serverErrors++
      sampled(tally, `tool answered ${text}`)
    }
  }
}

/** `clients` loops posting batches of `size` messages until stopped. */
export const emptyMcpTally = (): McpTally => ({
  batches: 0,
  messages: 0,
  answered: 0,
  refused: 0,
  serverErrors: 0,
  httpStatuses: {},
  samples: [],
})

export function mcpBatches(
  url: string,
  keys: string[],
  calls: ToolCall[],
  clients: number,
  size: number,
): LoadLoop<McpTally> {
  const tally = emptyMcpTally()
  let running = true
  let next = 0
  const client = async (c: number) => {
    for (let n = 0; running; n++) {
      const start = (next++ * size) % calls.length
      const batch = Array.from({ length: size }, (_, i) => {
        const call = calls[(start + i) % calls.length]
        return { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: call }
      })
      const key = keys[(n * clients + c) % keys.length]
      try {
        const response = await fetch(`${url}/api/v1/mcp`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: MCP_ACCEPT },
          body: JSON.stringify(batch),
        })
        const body = await response.text()
        tally.batches++
        tally.messages += size
        tally.httpStatuses[response.status] = (tally.httpStatuses[response.status] ?? 0) + 1
        if (response.status >= 500) {
          tally.serverErrors++
          sampled(tally, `HTTP ${response.status}: ${body}`)
        } else if (response.status === 200) tallyAnswers(tally, JSON.parse(body) as Answer[])
      } catch (error) {
        tally.httpStatuses.socket = (tally.httpStatuses.socket ?? 0) + 1
        sampled(tally, `socket: ${(error as Error).message}`)
      }
    }
  }
  const done = Promise.all(Array.from({ length: clients }, (_, c) => client(c)))
  return {
    tally,
    stop: async () => {
      running = false
      await done
    },
  }
}
