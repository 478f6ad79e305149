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
const INIT = `(function () {
  var node = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: node.getAttribute('data-spec-url'),
    domNode: node,
    deepLinking: true,
    validatorUrl: null,
    defaultModelsExpandDepth: 0,
    docExpansion: 'list',
    tryItOutEnabled: false
  });
})();
`

let loaded: Map<string, Asset> | null = null

/** The files by name under the assets prefix, loaded on first use. */
export function docsAssets(): Map<string, Asset> {
  loaded ??= new Map([
    ['swagger-ui-bundle.js', asset(readFileSync(join(swaggerDir, 'swagger-ui-bundle.js')), 'text/javascript; charset=utf-8')],
    ['swagger-ui.css', asset(readFileSync(join(swaggerDir, 'swagger-ui.css')), 'text/css; charset=utf-8')],
    ['init.js', asset(INIT, 'text/javascript; charset=utf-8')],
  ])
  return loaded
}

export const ASSETS_PREFIX = `/assets/docs/${SWAGGER_VERSION}`
