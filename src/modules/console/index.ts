/**
 * The operator console at /console: a browser client of the admin interface (/api). The service
 * only serves its shell and assets; every screen reads and changes data through /api with the
 * session cookie, under the same gate, limits and roles as any other client.
 */
import { Elysia } from 'elysia'
import { notFound, quoted } from '../../http/errors'
import { loadAssets } from './assets'
import { CONSOLE_HEADERS, SHELL_HTML } from './shell'

/** The screens the script renders; any other path under /console is a 404 page. */
const SCREENS = [
  /^$/,
  /^sign-in$/,
  /^sources$/,
  /^jobs$/,
  /^briefs$/,
  /^briefs\/[1-9][0-9]{0,9}$/,
  /^contradictions$/,
  /^gaps$/,
  /^prompts$/,
  /^prompts\/[a-z0-9_-]{1,100}$/,
  /^accounts$/,
  /^accounts\/[1-9][0-9]{0,9}$/,
  /^keys$/,
  /^review$/,
  /^password$/,
]

const pageHeaders = { ...CONSOLE_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' }

export const consoleModule = () => {
  const assets = loadAssets()
  const shell = (screen: string) => {
    if (!SCREENS.some((s) => s.test(screen))) throw notFound(`no console screen ${quoted(`/console/${screen}`)}`)
    return new Response(SHELL_HTML, { headers: pageHeaders })
  }
  return new Elysia({ name: 'console' })
    .get('/console', () => shell(''), { detail: { hide: true } })
    .get(
      '/console/assets/*',
      ({ params, request }) => {
        const found = assets.get(params['*'])
        if (!found) throw notFound(`no console asset ${quoted(params['*'])}`)
        const headers = {
          ...CONSOLE_HEADERS,
          'content-type': found.type,
          'cache-control': 'no-cache',
          etag: found.etag,
        }
        if (request.headers.get('if-none-match') === found.etag) return new Response(null, { status: 304, headers })
        return new Response(found.body, { headers })
      },
      { detail: { hide: true } },
    )
    .get('/console/*', ({ params }) => shell(params['*'].replace(/\/$/, '')), { detail: { hide: true } })
}
