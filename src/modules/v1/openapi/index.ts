/**
 * GET /api/v1/openapi.json: the OpenAPI 3.1 document of the Data API, generated from the routes'
 * own parameter declarations and response schemas, so code and contract cannot drift apart.
 * Served without a key (a client generator needs it before it has one); /api/v1/docs renders it.
 */
import { openapi } from '@elysiajs/openapi'
import { Elysia } from 'elysia'

type Document = { paths?: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> }

/**
 * Routes whose path the generator cannot write: `/papers/doi:*` (a DOI keeps its slashes) comes out
 * as `/papers/doi{*}` with a parameter named `*`. Renamed in the document it serves, once.
 */
export const OPENAPI_PATH_NAMES: Record<string, { path: string; wildcard: string }> = {
  '/api/v1/papers/doi{*}': { path: '/api/v1/papers/doi:{doi}', wildcard: 'doi' },
}

function renamePaths(doc: Document): void {
  for (const [generated, { path, wildcard }] of Object.entries(OPENAPI_PATH_NAMES)) {
    const item = doc.paths?.[generated]
    if (!item) continue
    for (const operation of Object.values(item)) {
      operation.parameters = operation.parameters?.filter((p) => !(p.in === 'path' && p.name === '*'))
      if (!operation.parameters?.some((p) => p.name === wildcard)) operation.parameters = [{ name: wildcard, in: 'path', required: true, schema: { type: 'string' } } as never, ...(operation.parameters ?? [])]
    }
    delete doc.paths![generated]
    doc.paths![path] = item
  }
}

export const openApiModule = (baseUrl: string) => new Elysia({ name: 'v1-openapi' })
  .onAfterHandle(({ path, response }) => {
    if (path === '/api/v1/openapi.json' && response && typeof response === 'object') renamePaths(response as Document)
  })
  .use(openapi({
    path: '/api/v1/docs',
    specPath: '/api/v1/openapi.json',
    provider: 'scalar',
    exclude: { paths: [/^(?!\/api\/v1\/)/, '/api/v1/docs', '/api/v1/openapi.json'] },
    documentation: {
      openapi: '3.1.0',
      info: {
        title: 'Geroscope Data API',
        version: '1.0.0',
        description: [
          'Read-only JSON over a corpus of aging-biology research papers: judgements, stories, entities and claims.',
          'Every request carries `Authorization: Bearer <API_KEY>` (keys look like `grk_` + 8-character id + `_` + 32-character secret).',
          'Errors are `{ error: { status, code, message } }`. Lists page with opaque signed cursors: repeat the request with',
          '`cursor` = `pagination.next_cursor` and the same other parameters (limit may change) until it is null.',
          'Rate limits: member 60/minute and 1,000/day per account; pro 600/minute and 50,000/day per key; every',
          'response to a usable key carries the X-RateLimit-* headers, and a 429 carries Retry-After.',
          'A 401 carries `WWW-Authenticate: Bearer realm="geroscope"` (with `error="invalid_token"` for a key that is',
          'malformed, unknown or revoked). A 503 (database unreachable or refusing connections) carries Retry-After.',
          'Numbers in parameters are decimal numbers as JSON writes them (2, 0.5, 1e0), and .5 and 2. are read too;',
          'text is percent-encoded UTF-8 (other bytes are a 400 naming the parameter). A URL over 8 KiB is a 414,',
          'header fields over 16 KiB or more than 100 of them a 431, both invalid_parameter in the error envelope.',
          'This document itself is served without a key.',
          'AI agents: POST /api/v1/mcp is a Model Context Protocol server (Streamable HTTP, same key and limits) whose tools',
          'search_papers, get_paper, get_papers, list_stories, find_entities, get_entity, list_claims and get_stats call these endpoints;',
          'each MCP message counts as one request. GET answers carry a weak ETag (If-None-Match gives 304) and are sent in br or gzip',
          'when Accept-Encoding asks.',
        ].join(' '),
      },
      servers: [{ url: baseUrl }],
      components: {
        securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: grk_ + 8-character key id + _ + 32-character secret' } },
      },
      security: [{ apiKey: [] }],
    },
  }))
