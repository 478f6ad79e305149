/**
 * Builds the whole HTTP application without listening: the entry points serve `app.fetch`,
 * and tests call `app.handle(new Request(...))`.
 */
import { sql } from 'drizzle-orm'
import { Elysia, type AnyElysia } from 'elysia'
import { DATA_CHANGED, KEYS_CHANGED, watchChanges } from './db/changes'
import { DatabasePulse } from './db/pulse'
import { DatabaseBreaker } from './http/breaker'
import { corsPlugin } from './http/cors'
import { errorPlugin } from './http/error-plugin'
import { requestIdPlugin } from './http/request-id'
import { requestLimitsPlugin } from './http/request-limits'
import { adminApi } from './modules/admin'
import { consoleModule } from './modules/console'
import { healthModule } from './modules/health'
import type { AppContext } from './modules/app-context'
import { KeyUsageRecorder } from './accounts/key-last-used'
import { siteModule } from './modules/site'
import { PAGE_CSP, errorPage, htmlSecurityHeaders } from './modules/site/render'
import { docsModule } from './modules/docs'
import { KeyAuthenticator } from './modules/v1/auth'
import { dataApi } from './modules/v1'
import { openApiModule } from './modules/v1/openapi'
import { ResponseCache } from './modules/v1/response-cache'
import { CorpusSnapshot } from './modules/v1/stats/snapshot'
import { searchBackend } from './search'

/** Answers may be this old when a change notification was lost (the contract lets clients keep them 60 s). */
const RESPONSE_TTL_MS = 30_000

function responseCacheFor(megabytes: number, reachable: () => Promise<void>): ResponseCache | null {
  if (megabytes === 0) return null
  return new ResponseCache({ maxBytes: megabytes * 1024 * 1024, ttlMs: RESPONSE_TTL_MS, reachable })
}

export function buildApp(context: AppContext) {
  const { database, config } = context
  const keys = new KeyAuthenticator(database.db)
  void watchChanges(database, KEYS_CHANGED, () => keys.forget())
  // Answers from memory (cached pages, the /stats snapshot) wait for this, so an outage is a 503 everywhere.
  const pulse = new DatabasePulse(() => database.rows(sql`select 1`))
  const reachable = () => pulse.check()
  // Data API requests answer 503 at once while the database was found down moments ago (http/breaker.ts).
  const breaker = new DatabaseBreaker(reachable)
  const cache =
    context.responseCache !== undefined ? context.responseCache : responseCacheFor(config.responseCacheMb, reachable)
  if (cache) void watchChanges(database, DATA_CHANGED, () => cache.invalidate())
  const snapshot = context.snapshot ?? new CorpusSnapshot(database.reader, context.now)
  const keyUsage = context.keyUsage ?? new KeyUsageRecorder(database)
  // one backend for /api/v1/search and the site's search page
  const search = context.search ?? searchBackend(database.db, config)
  // The OpenAPI documents describe the whole application's routes, which exist once it is built.
  let built: AnyElysia | null = null
  const root = () => built!
  const app = new Elysia({ normalize: false })
    .use(requestIdPlugin) // first, so the preflight answers the CORS plugin gives carry it too
    .use(corsPlugin)
    .onError({ as: 'global' }, ({ error }) => {
      breaker.record(error)
    }) // notes only; the error plugin below answers
    .use(errorPlugin({ page: { headers: htmlSecurityHeaders(PAGE_CSP), render: errorPage } }))
    .use(requestLimitsPlugin(config)) // before the v1 gate: an oversized or slow request costs no key check
    .use(healthModule(context))
    .use(siteModule({ db: database.db, base: config.publicBaseUrl, snapshot, search, cache }))
    .use(consoleModule())
    .use(docsModule(config.publicBaseUrl))
    .use(openApiModule(config.publicBaseUrl, root))
    .use(
      dataApi(
        { ...context, search },
        { keys, snapshot, cache, reachable, keyUsage, breaker, handle: () => (request) => root().handle(request) },
      ),
    )
    // A correction through the admin interface shows on the next request here at once; other instances hear the NOTIFY.
    .use(adminApi(context, root, () => cache?.invalidate()))
  built = app
  return app
}

export type App = ReturnType<typeof buildApp>
