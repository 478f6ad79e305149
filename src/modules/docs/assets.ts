/**
 * Static files the reference pages need, served by the service from installed npm packages (nothing
 * from a CDN: a closed network must see the same page). Read once, kept in memory, served with a
 * strong ETag and a day's public caching: the URLs carry the package version, so a new version is a
 * new URL.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)
const swaggerDir = dirname(require.resolve('swagger-ui-dist/package.json'))
export const SWAGGER_VERSION: string = JSON.parse(readFileSync(join(swaggerDir, 'package.json'), 'utf8')).version

export type Asset = { body: ArrayBuffer; type: string; etag: string }

function asset(body: Uint8Array | string, type: string): Asset {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body
  const copy = bytes.slice().buffer as ArrayBuffer
  return { body: copy, type, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"` }
}

/** Starts the viewer on the element that names the document's absolute URL (no inline script). */
const INIT =
  `(function () {
  var node = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: node.getAttribute('data-spec-url'),
    domNode: node,
    deepLinking: false, // with deep links each summary button holds a link: nested controls, which screen readers ` +
  `cannot use
    validatorUrl: null,
    defaultModelsExpandDepth: 0,
    docExpansion: 'list',
    tryItOutEnabled: false,
    onComplete: function () {
      var servers = document.getElementById('servers');
      if (servers) servers.setAttribute('aria-label', 'Server');
    }
  });
})();
`

/** Swagger UI's colours that fail WCAG contrast on its light theme, darkened. */
const OVERRIDES =
  `.swagger-ui .info .title small{background:#4a4a4a!important}.swagger-ui .info .title ` +
  `small.version-stamp{background:#1d6b1d!important}
.swagger-ui .info .title small pre,.swagger-ui .info .title small .version{color:#fff!important;` +
  `background:transparent!important}
.swagger-ui .opblock-get .opblock-summary-method{background:#1f5fa8!important}.swagger-ui .opblock-post ` +
  `.opblock-summary-method{background:#1d6b1d!important}
.swagger-ui .opblock-delete .opblock-summary-method{background:#b3261e!important}.swagger-ui .opblock-patch ` +
  `.opblock-summary-method,.swagger-ui .opblock-put .opblock-summary-method{background:#7a4f00!important}
.swagger-ui .info a,.swagger-ui .info .url,.swagger-ui .info a span{color:#0a58a8!important}
.swagger-ui .btn.authorize,.swagger-ui .btn.authorize span{color:#1d6b1d!important;` +
  `border-color:#1d6b1d!important}.swagger-ui .btn.authorize svg{fill:#1d6b1d!important}
.swagger-ui .opblock .opblock-summary-description,.swagger-ui .response-col_links{color:#2d2d2d!important}
`

let loaded: Map<string, Asset> | null = null

/** The files by name under the assets prefix, loaded on first use. */
export function docsAssets(): Map<string, Asset> {
  loaded ??= new Map([
    [
      'swagger-ui-bundle.js',
      asset(readFileSync(join(swaggerDir, 'swagger-ui-bundle.js')), 'text/javascript; charset=utf-8'),
    ],
    ['swagger-ui.css', asset(readFileSync(join(swaggerDir, 'swagger-ui.css')), 'text/css; charset=utf-8')],
    ['init.js', asset(INIT, 'text/javascript; charset=utf-8')],
    ['overrides.css', asset(OVERRIDES, 'text/css; charset=utf-8')],
  ])
  return loaded
}

export const ASSETS_PREFIX = `/assets/docs/${SWAGGER_VERSION}`
