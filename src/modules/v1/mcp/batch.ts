/**
 * A JSON-RPC batch on the MCP endpoint: an array of messages in one POST. Each message counts as
 * one request against the key's allowance, as it would sent alone (the gate counted the first):
 * once the allowance runs out, the rest of the batch is answered with a JSON-RPC error carrying
 * 429 and Retry-After and is not run. Messages run one after another, never side by side, and a
 * batch holds at most MAX_MESSAGES of them; once the answers reach MAX_ANSWER_BYTES the rest are
 * refused uncounted, so what one request can hold in memory is bounded by the cap plus one answer.
 * Validation follows the SDK's transport, so a batch is refused whole where it would refuse it.
 */
import { JSONRPCMessageSchema, isInitializeRequest, isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js'
import { rateLimitHeaders, type RateDecision } from '../../../rate-limit/store'

export const MAX_MESSAGES = 25
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024

type Id = string | number
type RpcError = { code: number; message: string; data?: Record<string, unknown> }

/** A JSON-RPC error answer to the whole request, in the shape the SDK's transport gives its own. */
export function rpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers })
}

/** The whole batch's refusal, or null when each message may be served on its own. */
export function refuseBatch(messages: unknown[]): Response | null {
  if (messages.length > MAX_MESSAGES) {
    return rpcError(
      400,
      -32600,
      `Invalid Request: a batch holds at most ${MAX_MESSAGES} messages (got ${messages.length}); each message counts ` +
        `as one request`,
    )
  }
  if (!messages.every((m) => JSONRPCMessageSchema.safeParse(m).success))
    return rpcError(400, -32700, 'Parse error: Invalid JSON-RPC message')
  if (messages.some(isInitializeRequest))
    return rpcError(400, -32600, 'Invalid Request: Only one initialization request is allowed')
  return null
}

export type ServeOne = (message: unknown) => Promise<Response>
export type Charge = () => Promise<RateDecision>
export type BatchOutcome = { response: Response; lastDecision: RateDecision | null }

const idOf = (message: unknown): Id | undefined => (isJSONRPCRequest(message) ? (message as { id: Id }).id : undefined)

function rateLimited(decision: RateDecision): RpcError {
  return {
    code: -32000,
    message:
      `429 rate_limited: rate limit reached; retry after ${decision.retryAfter} seconds (each message of a ` +
      `batch counts as one request)`,
    data: { status: 429, code: 'rate_limited', retry_after: decision.retryAfter },
  }
}

const answerTooLarge: RpcError = {
  code: -32000,
  message:
    `413 batch_too_large: not run, since the batch's answers reached ${MAX_ANSWER_BYTES / 1024 / 1024} MiB; ` +
    `send this message in another request (it was not counted)`,
  data: { status: 413, code: 'batch_too_large' },
}

/**
 * Serves the messages of a valid batch one by one. The first was counted by the gate; each later
 * one is charged just before it runs. A transport-level refusal of the first message (a wrong
 * Accept or Content-Type) is the answer to the whole request, as the SDK would give it.
 */
export async function serveBatch(messages: unknown[], serve: ServeOne, charge: Charge): Promise<BatchOutcome> {
  const answers: unknown[] = []
  let bytes = 0
  let lastDecision: RateDecision | null = null
  let refusal: RpcError | null = null
  for (const [i, message] of messages.entries()) {
    if (!refusal && bytes >= MAX_ANSWER_BYTES) refusal = answerTooLarge
    if (!refusal && i > 0) {
      lastDecision = await charge()
      if (!lastDecision.allowed) refusal = rateLimited(lastDecision)
    }
    const id = idOf(message)
    if (refusal) {
      if (id !== undefined) answers.push({ jsonrpc: '2.0', id, error: refusal })
      continue
    }
    const response = await serve(message)
    if (response.status === 202) continue // a notification: no answer
    if (!response.ok && i === 0) return { response, lastDecision }
    const text = await response.text()
    bytes += text.length
    answers.push(JSON.parse(text))
  }
  const headers = lastDecision ? rateLimitHeaders(lastDecision) : {}
  const response = answers.length ? Response.json(answers, { headers }) : new Response(null, { status: 202, headers })
  return { response, lastDecision }
}
