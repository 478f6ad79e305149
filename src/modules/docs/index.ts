/**
 * The API references: /api/v1/docs (Data API, with a quick-start) and /api/docs (admin interface),
 * each rendered in the browser by Swagger UI from the service's own OpenAPI document at its absolute
 * URL. Swagger UI is the npm package swagger-ui-dist, served from this service under ASSETS_PREFIX;
 * nothing is loaded from a CDN. Both pages are public, as their documents are.
 */
import { Elysia } from 'elysia'
import { notFound, quoted } from '../../http/errors'
import { REFERENCE_CSP, escapeXml, html, layout } from '../site/render'
import { ASSETS_PREFIX, docsAssets } from './assets'
import { quickStartHtml } from './quick-start'

/**
 * How each reference's requests are authenticated: a bearer key for the Data API, the admin interface's session cookie.
 */
const HOW_TO_TRY = {
  key: 'Use <strong>Authorize</strong> to give your key, then <strong>Try it out</strong> on any endpoint.',
  session:
    'Sign in first: <strong>Try it out</strong> on <code>POST /api/auth/login</code> with your username and ' +
    'password; the session cookie it sets then goes with every request from this page.',
}

const viewer = (specUrl: string, auth: keyof typeof HOW_TO_TRY) =>
  `<section aria-labelledby="reference"><h2 id="reference">Reference</h2>
<p class="meta">${HOW_TO_TRY[auth]}
Without JavaScript, read the <a href="${escapeXml(specUrl)}">OpenAPI document</a>.</p>
<div id="swagger-ui" data-spec-url="${escapeXml(specUrl)}"></div></section>`

function referencePage(title: string, intro: string, specUrl: string, auth: keyof typeof HOW_TO_TRY): Response {
  return html(
    layout({
      title,
      wide: true,
      head:
        `<link rel="stylesheet" href="${ASSETS_PREFIX}/swagger-ui.css"><link rel="stylesheet" ` +
        `href="${ASSETS_PREFIX}/overrides.css">`,
      body: `<h1>${escapeXml(title)}</h1>${intro}${viewer(specUrl, auth)}`,
      scripts: [`${ASSETS_PREFIX}/swagger-ui-bundle.js`, `${ASSETS_PREFIX}/init.js`],
    }),
    'public, max-age=300',
    REFERENCE_CSP,
  )
}

export const docsModule = (base: string) =>
  new Elysia({ name: 'docs' })
    .get(
      '/api/v1/docs',
      () =>
        referencePage(
          'Geroscope Data API',
          `<p>Read-only JSON over a corpus of aging-biology research: papers with their judgements, stories, ` +
            `entities and claims.</p>${quickStartHtml(base)}`,
          `${base}/api/v1/openapi.json`,
          'key',
        ),
      { detail: { hide: true } },
    )
    .get(
      '/api/docs',
      () =>
        referencePage(
          'Geroscope admin interface',
          `<p>The operator interface: sign in with <code>POST /api/auth/login</code>` +
            ` (the session cookie then goes with every request from this page), then manage keys, accounts, sources, ` +
            `jobs and prompts. Members may manage their own keys. The Data API has <a href="/api/v1/docs">` +
            `its own reference</a>.</p>`,
          `${base}/api/openapi.json`,
          'session',
        ),
      { detail: { hide: true } },
    )
    .get(
      `${ASSETS_PREFIX}/:name`,
      ({ params, request }) => {
        const file = docsAssets().get(params.name ?? '')
        if (!file) throw notFound(`no asset ${quoted(params.name ?? '')}`)
        const headers = {
          'content-type': file.type,
          etag: file.etag,
          'cache-control': 'public, max-age=86400',
          'x-content-type-options': 'nosniff',
        }
        if (request.headers.get('if-none-match') === file.etag) return new Response(null, { status: 304, headers })
        return new Response(file.body, { headers })
      },
      { detail: { hide: true } },
    )
