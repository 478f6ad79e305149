/**
 * The intelligence and briefs plugins on a small app of their own, as the lead mounts them behind
 * the operator guard: request ids, the shared error plugin, an OpenAPI document (so answers can be
 * checked against the served schemas), then the two plugins.
 */
import { openapi } from '@elysiajs/openapi'
import { Elysia } from 'elysia'
import type { LlmClientOptions } from '../../src/pipeline/analysis/llm/client'
import type { Database } from '../../src/db/client'
import { errorPlugin } from '../../src/http/error-plugin'
import { requestIdPlugin } from '../../src/http/request-id'
import { briefsModule } from '../../src/modules/admin/briefs'
import { intelligenceModule } from '../../src/modules/admin/intelligence'
import { TEST_SECRET, req } from '../support/app'

export const BASE = 'https://geroscope.test'

export function adminApp(
  database: Database,
  options: { llm?: LlmClientOptions | null; now?: () => Date; accountOf?: () => number | null } = {},
) {
  return new Elysia({ normalize: false })
    .use(requestIdPlugin)
    .use(errorPlugin())
    .use(
      openapi({
        path: '/api/docs',
        specPath: '/api/openapi.json',
        exclude: { paths: [/^(?!\/api\/)/, '/api/docs', '/api/openapi.json'] },
      }),
    )
    .use(intelligenceModule({ database, baseUrl: BASE, secret: TEST_SECRET }))
    .use(
      briefsModule({
        db: database.db,
        baseUrl: BASE,
        secret: TEST_SECRET,
        llm: options.llm ?? null,
        now: options.now,
        accountOf: options.accountOf,
      }),
    )
}

export type AdminApp = ReturnType<typeof adminApp>

/** A request's status and JSON body (or null), plus headers. */
export async function call(app: AdminApp, path: string, init?: RequestInit & { json?: unknown }) {
  const { json, ...rest } = init ?? {}
  const request =
    json === undefined
      ? req(path, rest)
      : req(path, {
          method: 'POST',
          ...rest,
          headers: { 'content-type': 'application/json', ...rest.headers },
          body: JSON.stringify(json),
        })
  const response = await app.handle(request)
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers }
}

/** Follows next_cursor from `path` (with a query) until the last page; returns every page's body. */
export async function walk(app: AdminApp, path: string) {
  const pages: any[] = [] // eslint-disable-line @typescript-eslint/no-explicit-any
  let cursor: string | null = null
  do {
    const { status, body } = await call(app, `${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    if (status !== 200) throw new Error(`walk got ${status}: ${JSON.stringify(body)}`)
    pages.push(body)
    cursor = body.pagination.next_cursor
  } while (cursor)
  return pages
}
