/**
 * GET /api/openapi.json: the OpenAPI 3.1 document of the admin interface, generated from the routes'
 * own request and response declarations like the Data API's (src/modules/v1/openapi). Served without
 * a session. /api/docs (src/modules/docs) renders it.
 */
import type { AnyElysia } from 'elysia'
import { documentRoute } from '../../http/openapi-document'
import { SESSION_COOKIE } from './auth/cookie'

const DESCRIPTION = [
  'The operator interface of Geroscope: sessions, API keys, accounts, RSS sources, scraping, analysis, job runs, ' +
    'system prompts and the review of judgements.',
  '',
  '**Sessions.** `POST /api/auth/login` with `{ "username", "password" }` sets the `geroscope_session` cookie (an ' +
    'opaque random token;',
  'HttpOnly, SameSite=Lax, Path=/api, Secure over https). Send it back with every request. A session ends at logout, ' +
    'after',
  'SESSION_IDLE_MINUTES without a request (default 30) and SESSION_MAX_HOURS after login (default 12); an ended ' +
    "session's cookie is",
  'refused with 401 unauthenticated. Every login starts a new session. Sessions also end when the account changes its',
  'password (all but the one that changed it), when an operator resets the password, disables the account or ends its',
  'sessions, and, for a member, when the membership lapses (at the next request at the latest).',
  '',
  '**Roles.** Operators (role admin) may call everything. Members may call /api/auth/* and /api/keys (their own ' +
    'keys); any other',
  'path is 403 forbidden for them. Without a session everything but the login and this document is 401 ' +
    'unauthenticated.',
  '',
  '**Cross-site requests.** A POST, PUT, PATCH or DELETE whose Origin header (or, without Origin, Referer) names ' +
    'another origin',
  "than this service's public URL or the one the request was sent to is refused with 403 forbidden, the login " +
    'included. A request',
  'with neither header is allowed: browsers send Origin with every cross-origin request that can change state, so ' +
    'such a request',
  "does not come from another site's page but from a program (curl, a script) that holds the cookie itself, and " +
    'cannot be forged.',
  '',
  '**Limits.** 100 requests a minute per signed-in account; 10 a minute per client address without a session, the ' +
    'login included,',
  'so password guessing is slow. Over the limit: 429 rate_limited with Retry-After (seconds). The client address is ' +
    "the connection's",
  'unless TRUST_PROXY names the proxies in front of the service. One client address may have MAX_CLIENT_CONNECTIONS ' +
    'requests',
  '(64 by default) in progress at once; more are 429 rate_limited with Retry-After. A body over 256 KiB is a 413, ' +
    'and one',
  "that has not arrived in full BODY_TIMEOUT_MS (30 s by default) after the request's head is a 408, both " +
    'invalid_parameter.',
  '',
  '**Errors** are `{ error: { status, code, message } }`, as in the Data API; codes add unauthenticated, forbidden,',
  'invalid_credentials and conflict. JSON bodies are checked field by field: an unknown field, a missing one or a ' +
    'bad value is a',
  '400 invalid_parameter naming it. Lists page like the Data API (`cursor`, `limit`).',
].join('\n')

const SPEC_PATH = '/api/openapi.json'

const TAGS = [
  { name: 'Sessions', description: 'Log in and out; who am I.', paths: ['auth'] },
  { name: 'Keys', description: 'Your own API keys.', paths: ['keys'] },
  { name: 'Accounts', description: 'Accounts, roles, memberships and their keys (operators).', paths: ['accounts'] },
  { name: 'Sources', description: 'RSS sources and scraping them.', paths: ['sources', 'scrape'] },
  { name: 'Jobs', description: 'Analysis runs and the job log.', paths: ['analyze', 'jobs'] },
  { name: 'Overview', description: 'The service at a glance, as charts with their numbers.', paths: ['overview'] },
  { name: 'Prompts', description: 'System prompts with their version history.', paths: ['prompts'] },
  { name: 'Intelligence', description: 'Contradictions and gaps across papers.', paths: ['intelligence'] },
  {
    name: 'Review',
    description: "Judgements to review, editors' corrections and their history.",
    paths: ['review', 'papers'],
  },
  {
    name: 'Stories',
    description: 'Stories the support check held back, and rewriting a story from its judgement.',
    paths: ['stories'],
  },
  { name: 'Briefs', description: 'Briefs over a window or tags, with citations.', paths: ['generate-brief', 'briefs'] },
]

const HEADERS = {
  'X-Request-Id': {
    description: 'Identifies the request; quote it when reporting a problem.',
    schema: { type: 'string' },
  },
  'Cache-Control': { description: 'no-store: answers are about the caller.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
}

function headersFor(status: string): string[] {
  return status === '429' || status === '503'
    ? ['X-Request-Id', 'Cache-Control', 'Retry-After']
    : ['X-Request-Id', 'Cache-Control']
}

const tagOf = (path: string) => TAGS.find((t) => t.paths.includes(path.split('/')[2] ?? ''))?.name ?? 'Sessions'

export const adminOpenApi = (baseUrl: string, app: () => AnyElysia) =>
  documentRoute(app, {
    specPath: SPEC_PATH,
    exclude: { paths: [/^\/api\/v1(\/|$)/, /^(?!\/api\/)/, SPEC_PATH, '/api/docs'] },
    names: [{ name: 'Error', at: ['/api/auth/login', 'post', '400'] }],
    tags: TAGS.map(({ name, description }) => ({ name, description })),
    tagOf,
    headers: HEADERS,
    headersFor,
    documentation: {
      info: {
        title: 'Geroscope admin interface',
        version: '1.0.0',
        description: DESCRIPTION,
        contact: { name: 'Geroscope operator', url: `${baseUrl}/api/docs` },
        license: {
          name: 'Proprietary: for the operator and members of this installation',
          identifier: 'LicenseRef-Geroscope',
        },
      },
      servers: [{ url: baseUrl }],
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: 'The session cookie POST /api/auth/login sets.',
          },
        },
      },
      security: [{ session: [] }],
    },
  })
