/**
 * GET /api/v1/openapi.json: the OpenAPI 3.1 document of the Data API, generated from the routes'
 * own parameter declarations and response schemas, so code and contract cannot drift apart, then
 * finished for clients (src/http/openapi-document.ts: named schemas, tags, response headers).
 * Served without a key (a client generator needs it before it has one); /api/v1/docs
 * (src/modules/docs) renders it.
 */
import type { AnyElysia } from 'elysia'
import { documentRoute, type NamedAt } from '../../../http/openapi-document'
import { describeCsv } from './csv'
import { describeNotModified, describeSparse } from './sparse'

const SPEC_PATH = '/api/v1/openapi.json'

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
      if (!operation.parameters?.some((p) => p.name === wildcard))
        operation.parameters = [
          { name: wildcard, in: 'path', required: true, schema: { type: 'string' } } as never,
          ...(operation.parameters ?? []),
        ]
    }
    delete doc.paths![generated]
    doc.paths![path] = item
  }
}

/**
 * The download of an export file answers with bytes, not JSON, and with statuses the generator
 * knows nothing of (206, 304, 416): written here, on the operation the route documents otherwise.
 */
function describeExportDownload(doc: {
  paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>>
}): void {
  const operation = doc.paths?.['/api/v1/exports/{file}']?.get
  if (!operation) return
  const ref = (name: string) => ({ $ref: `#/components/headers/${name}` })
  const rateLimited = Object.fromEntries(['X-Request-Id', 'Cache-Control', ...RATE_LIMIT].map((h) => [h, ref(h)]))
  const file = { 'Accept-Ranges': ref('Accept-Ranges'), ETag: ref('ETag'), 'Content-Length': ref('Content-Length') }
  const gzip = { 'application/gzip': { schema: { type: 'string', contentMediaType: 'application/gzip' } } }
  operation.responses = {
    200: {
      description: 'The whole file: gzip-compressed NDJSON, bytes and sha256 as listed',
      content: gzip,
      headers: { ...rateLimited, ...file },
    },
    206: {
      description: 'The range asked for; Content-Range says which bytes of how many',
      content: gzip,
      headers: { ...rateLimited, ...file, 'Content-Range': ref('Content-Range') },
    },
    304: {
      description: "Not modified: If-None-Match holds the file's ETag",
      headers: { ...rateLimited, ETag: ref('ETag') },
    },
    ...operation.responses,
    416: {
      description: 'The range starts beyond the end of the file (invalid_parameter)',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      headers: { ...rateLimited, 'Content-Range': ref('Content-Range') },
    },
  }
}

/**
 * An entity asked for by another of its names is a 308 to its own URL (src/modules/v1/entities/resolve.ts):
 * a status without a body, which the generator does not write.
 */
function describeEntityRedirect(doc: {
  paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>>
}): void {
  const operation = doc.paths?.['/api/v1/entities/{type}/{key}']?.get
  if (!operation) return
  const ref = (name: string) => ({ $ref: `#/components/headers/${name}` })
  operation.responses = {
    ...operation.responses,
    308: {
      description:
        'key is not a key but a name, alias or differently-cased key of exactly one entity of the type (p16, ' +
        'sirolimus): ' +
        "a permanent redirect to that entity's own URL (Location), with the query string kept.",
      headers: {
        ...Object.fromEntries(['X-Request-Id', 'Cache-Control', ...RATE_LIMIT].map((h) => [h, ref(h)])),
        Location: ref('Location'),
      },
    },
  }
}

const at = (path: string, ...steps: string[]) => [`/api/v1${path}`, 'get', '200', ...steps]

/** Component names, each taken from where the schema first appears. */
const NAMES: NamedAt[] = [
  { name: 'Pagination', at: at('/papers', 'pagination') },
  { name: 'SearchPagination', at: at('/search', 'pagination') },
  { name: 'Error', at: ['/api/v1/papers', 'get', '400'] },
  { name: 'Paper', at: at('/papers', 'data', '[]') },
  { name: 'Judgement', at: at('/papers', 'data', '[]', 'judgement') },
  { name: 'StorySummary', at: at('/papers', 'data', '[]', 'story') },
  { name: 'PaperDetail', at: at('/papers/{id}', 'data') },
  { name: 'Story', at: at('/papers/{id}', 'data', 'story') },
  { name: 'PaperEntity', at: at('/papers/{id}', 'data', 'entities', '[]') },
  { name: 'Claim', at: at('/papers/{id}', 'data', 'claims', '[]') },
  { name: 'ClaimSide', at: at('/papers/{id}', 'data', 'claims', '[]', 'subject') },
  { name: 'EntityRef', at: at('/papers/{id}', 'data', 'claims', '[]', 'subject', 'entity') },
  { name: 'SearchHit', at: at('/search', 'data', '[]') },
  { name: 'Entity', at: at('/entities', 'data', '[]') },
  { name: 'EntityDetail', at: at('/entities/{type}/{key}', 'data') },
  { name: 'EntityPaper', at: at('/entities/{type}/{key}', 'data', 'papers', '[]') },
  { name: 'ClaimItem', at: at('/claims', 'data', '[]') },
  { name: 'ClaimPaper', at: at('/claims', 'data', '[]', 'paper') },
  { name: 'StoryItem', at: at('/stories', 'data', '[]') },
  { name: 'Topic', at: at('/topics', 'data', '[]') },
  { name: 'Stats', at: at('/stats', 'data') },
  { name: 'ExportFile', at: at('/exports', 'data', '[]') },
]

const TAGS = [
  { name: 'Papers', description: 'Papers with their judgements; one paper with its story, entities and claims.' },
  { name: 'Search', description: 'Ranked full-text search over titles and abstracts.' },
  { name: 'Stories', description: 'Stories written about the notable papers.' },
  { name: 'Topics', description: 'The topics papers are filed under.' },
  { name: 'Entities', description: 'Genes, interventions, pathways and other things papers are about.' },
  { name: 'Claims', description: 'Claims extracted from papers: subject, relation, object.' },
  { name: 'Stats', description: 'Counts over the whole corpus.' },
  {
    name: 'Exports',
    description:
      'The nightly bulk export: every paper, story, entity and claim as gzip-compressed NDJSON and CSV, ' +
      'for pro keys.',
  },
]

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } })

const HEADERS = {
  'X-Request-Id': {
    description: 'Identifies the request; quote it when reporting a problem. Echoed when the request sends one.',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description: 'private, max-age=60 on answers (clients may keep them 60 seconds); no-store on errors.',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': integerHeader('Requests allowed per UTC day.'),
  'X-RateLimit-Remaining': integerHeader('Requests left today.'),
  'X-RateLimit-Reset': integerHeader('When the daily allowance resets, Unix seconds.'),
  'X-RateLimit-Used': integerHeader('Requests made today, this one included.'),
  'X-RateLimit-Minute-Limit': integerHeader('Requests allowed per UTC minute.'),
  'X-RateLimit-Minute-Remaining': integerHeader('Requests left this minute.'),
  'X-RateLimit-Minute-Reset': integerHeader('When the minute allowance resets, Unix seconds.'),
  'Retry-After': integerHeader('Seconds to wait before retrying.'),
  'Accept-Ranges': { description: 'bytes: the file can be fetched in ranges.', schema: { type: 'string' } },
  ETag: {
    description: "The file's sha256 in quotes (a strong validator, for If-None-Match and If-Range).",
    schema: { type: 'string' },
  },
  'Content-Length': integerHeader('Bytes in this answer.'),
  'Content-Range': {
    description: 'bytes first-last/size on a 206; bytes */size on a 416.',
    schema: { type: 'string' },
  },
  Location: { description: 'The URL the answer moved to (on a 308).', schema: { type: 'string', format: 'uri' } },
  'WWW-Authenticate': {
    description: 'Bearer realm="geroscope", with error="invalid_token" for a malformed, unknown or revoked key.',
    schema: { type: 'string' },
  },
}

const RATE_LIMIT = Object.keys(HEADERS).filter((h) => h.startsWith('X-RateLimit-'))

/** Which headers a response of each status carries: rate-limit headers whenever the key was usable. */
function headersFor(status: string): string[] {
  const always = ['X-Request-Id', 'Cache-Control']
  if (status === '401') return [...always, 'WWW-Authenticate']
  if (status === '429') return [...always, ...RATE_LIMIT, 'Retry-After']
  if (status === '503') return [...always, 'Retry-After']
  if (status === '200' || status === '304' || status === '308' || status === '400' || status === '404')
    return [...always, ...RATE_LIMIT]
  return always
}

const tagOf = (path: string) => {
  const area = path.split('/')[3] ?? ''
  return TAGS.find((t) => t.name.toLowerCase() === area)?.name ?? 'Papers'
}

export const openApiModule = (baseUrl: string, app: () => AnyElysia) =>
  documentRoute(app, {
    specPath: SPEC_PATH,
    exclude: { paths: [/^(?!\/api\/v1\/)/, '/api/v1/docs', SPEC_PATH] },
    names: NAMES,
    tags: TAGS,
    tagOf,
    headers: HEADERS,
    headersFor,
    finish: (doc) => {
      renamePaths(doc)
      describeExportDownload(doc)
      describeEntityRedirect(doc)
      describeCsv(doc)
      describeSparse(doc)
      describeNotModified(doc, headersFor)
    },
    documentation: {
      info: {
        title: 'Geroscope Data API',
        version: '1.0.0',
        contact: { name: 'Geroscope operator', url: `${baseUrl}/api/v1/docs` },
        license: {
          name:
            'Proprietary: API access under the Geroscope terms; abstracts carry their own licences ' +
            '(abstract_license)',
          identifier: 'LicenseRef-Geroscope',
        },
        description: [
          'Read-only JSON over a corpus of aging-biology research papers: judgements, stories, entities and claims.',
          `A quick-start (getting a key, paging, limits, errors, one example per endpoint) is ` +
            `at ${baseUrl}/api/v1/docs.`,
          'Every request carries `Authorization: Bearer <API_KEY>` (keys look like `grk_` + 8-character id + `_` + ' +
            '32-character secret).',
          'Errors are `{ error: { status, code, message } }`. Lists page with opaque signed cursors: repeat the ' +
            'request with',
          '`cursor` = `pagination.next_cursor` and the same other parameters (limit may change) until it is null.',
          'Rate limits: member 60/minute and 1,000/day per account; pro 600/minute and 50,000/day per key; every',
          'response to a usable key carries the X-RateLimit-* headers, and a 429 carries Retry-After.',
          'A 401 carries `WWW-Authenticate: Bearer realm="geroscope"` (with `error="invalid_token"` for a key that is',
          'malformed, unknown or revoked). A 503 (database unreachable or refusing connections) carries Retry-After.',
          'Numbers in parameters are decimal numbers as JSON writes them (2, 0.5, 1e0), and .5 and 2. are read too;',
          'text is percent-encoded UTF-8 (other bytes are a 400 naming the parameter). A URL over 8 KiB is a 414,',
          'header fields over 16 KiB or more than 100 of them a 431, a body over 1 MiB a 413, and a body that has ' +
            'not arrived',
          "in full 30 s (by default) after the request's head a 408, all invalid_parameter in the error envelope.",
          'One client address may have 64 requests (by default) in progress at once; more are a 429 with Retry-After.',
          'This document itself is served without a key.',
          'AI agents: POST /api/v1/mcp is a Model Context Protocol server (Streamable HTTP, same key and limits) ' +
            'whose tools',
          'search_papers, get_paper, get_papers, list_stories, find_entities, get_entity, list_claims and get_stats ' +
            'call these endpoints;',
          'each MCP message counts as one request. GET answers carry a weak ETag (If-None-Match gives 304) and are ' +
            'sent in br or gzip',
          'when Accept-Encoding asks.',
          'Bulk export: GET /api/v1/exports lists the nightly export, one gzip-compressed NDJSON file per resource ' +
            '(papers,',
          'stories, entities, claims), each with the same items as gzip-compressed CSV beside it, with counts, sizes',
          'and sha256; pro keys download the files, in byte ranges if they like; each download request, ranged or not,',
          'counts as one request. CSV: /papers, /search, /stories, /claims and /entities answer text/csv with',
          'format=csv or Accept: text/csv (one row per item, nested fields as dotted columns, the next page in a Link',
          'header); errors stay JSON.',
          'One answer shape per operation: the list paths also answer ids= (/papers), updated_since and fields=, ' +
            'each with',
          'another shape, so those answers are documented as operations of their own that answer the same bytes:',
          'GET /papers/batch?ids=, GET /papers/changes, /stories/changes and /claims/changes?updated_since=, and the ' +
            'same path',
          'under /api/v1/sparse with fields= (a schema with nothing required: a fields= answer has only the fields ' +
            'asked for).',
          "Every GET declares its 304 (If-None-Match with the answer's weak ETag).",
        ].join(' '),
      },
      servers: [{ url: baseUrl }],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key: grk_ + 8-character key id + _ + 32-character secret',
          },
        },
      },
      security: [{ apiKey: [] }],
    },
  })
