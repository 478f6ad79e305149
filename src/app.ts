/**
 * Builds the whole HTTP application without listening: the entry points serve `app.fetch`,
 * and tests call `app.handle(new Request(...))`.
 */
import { Elysia } from 'elysia'
import type { Config } from './config'
import type { Database } from './db/client'
import { corsPlugin } from './http/cors'
import { errorPlugin } from './http/error-plugin'
import { requestIdPlugin } from './http/request-id'
import { healthModule } from './modules/health'
import { siteModule } from './modules/site'
import { KeyAuthenticator } from './modules/v1/auth'
import { dataApi } from './modules/v1'
import { openApiModule } from './modules/v1/openapi'
import type { RateLimitStore } from './modules/v1/rate-limit/store'
import { CorpusSnapshot } from './modules/v1/stats/snapshot'
import type { SearchBackend } from './search/backend'

export type AppContext = {
  config: Config & { appSecret: string }
  database: Database
  limits: RateLimitStore // in-process by default, PostgreSQL-backed to share counts between instances
  snapshot?: CorpusSnapshot // /stats and /topics numbers, refreshed every minute; made here when not given
  now?: () => Date // injectable clock for rate-limit windows and snapshots
  search?: SearchBackend // PostgreSQL full text when not given
}

export function buildApp(context: AppContext) {
  const keys = new KeyAuthenticator(context.database.db)
  const snapshot = context.snapshot ?? new CorpusSnapshot(context.database.db, context.now)
  return new Elysia({ normalize: false })
    .use(corsPlugin)
    .use(requestIdPlugin)
    .use(errorPlugin)
    .use(healthModule(context))
    .use(siteModule(context.database.db, context.config.publicBaseUrl))
    .use(openApiModule(context.config.publicBaseUrl))
    .use(dataApi(context, keys, snapshot))
}

export type App = ReturnType<typeof buildApp>
