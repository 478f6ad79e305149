/**
 * POST /api/v1/mcp: a Model Context Protocol server over Streamable HTTP, with the
 * official SDK's web-standard transport, so it runs on app.fetch like every other route. Stateless:
 * each message gets its own server and transport and is answered as JSON, so any instance can
 * answer any message and nothing is held between them. The gate has checked the caller's key and
 * counted the request as one; a batch of messages pays for each further message (./batch.ts).
 * Each tool then calls the Data API in-process with the same key (not counted again:
 * src/modules/v1/internal-requests.ts), so the tools obey the key's tier and, for get_papers, the
 * batch cost of one request per 100 ids.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { readRequestBody, requestBodyTooLargeMessage } from '@modelcontextprotocol/sdk/server/requestBody.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { Elysia } from 'elysia'
import { MAX_REQUEST_BODY_BYTES } from '../../../platform/serve'
import { internalRequests } from '../internal-requests'
import type { TakeOne } from '../rate-limit/take'
import { refuseBatch, rpcError, serveBatch } from './batch'
import { INSTRUCTIONS } from './instructions'
import { registerPrompts } from './prompts'
import { registerResources } from './resources'
import { registerTools, type ApiCall } from './tools'

export type Handle = (request: Request) => Promise<Response>

const SERVER_INFO = { name: 'geroscope', version: '1.0.0' }

/** A Data API call on behalf of `request`'s caller: same key, same origin, not counted again. */
function apiCallFor(request: Request, handle: Handle): ApiCall {
  const origin = new URL(request.url).origin
  const authorization = request.headers.get('authorization') ?? ''
  return (path, init) => {
    const inner = new Request(
      `${origin}${path}`,
      init
        ? {
            method: init.method,
            headers: { authorization, 'content-type': 'application/json' },
            body: JSON.stringify(init.body),
          }
        : { headers: { authorization } },
    )
    internalRequests.add(inner)
    return handle(inner)
  }
}

/** One request through its own server and transport, as the SDK answers it. */
async function serveOne(request: Request, handle: Handle): Promise<Response> {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: {}, resources: {}, prompts: {} },
    instructions: INSTRUCTIONS,
  })
  const call = apiCallFor(request, handle)
  registerTools(server, call)
  registerResources(server, call)
  registerPrompts(server)
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  })
  await server.connect(transport)
  try {
    return await transport.handleRequest(request)
  } finally {
    void server.close()
  }
}

/** `request` again with `body` as its body (the original's was read). */
const withBody = (request: Request, body: string) =>
  new Request(request.url, { method: request.method, headers: request.headers, body })

export const mcpModule = (handle: () => Handle, take: TakeOne) =>
  new Elysia({ name: 'v1-mcp' }).all(
    '/api/v1/mcp',
    async ({ request }) => {
      if (request.method !== 'POST') return serveOne(request, handle())
      const body = await readRequestBody(request, MAX_REQUEST_BODY_BYTES)
      if (body.tooLarge) return rpcError(413, -32000, requestBodyTooLargeMessage(MAX_REQUEST_BODY_BYTES))
      let parsed: unknown
      try {
        parsed = JSON.parse(body.text)
      } catch {
        parsed = undefined // the transport answers the parse error, after its header checks
      }
      if (!Array.isArray(parsed) || parsed.length < 2) return serveOne(withBody(request, body.text), handle())
      const refused = refuseBatch(parsed)
      if (refused) return refused
      const outcome = await serveBatch(
        parsed,
        (message) => serveOne(withBody(request, JSON.stringify(message)), handle()),
        () => take(request),
      )
      return outcome.response
    },
    { parse: 'none', detail: { hide: true } },
  )
