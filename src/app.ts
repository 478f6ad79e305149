/**
 * Builds the whole HTTP application without listening: the entry points serve `app.fetch`,
 * and tests call `app.handle(new Request(...))`.
 */
import { Elysia } from 'elysia'
import type { Config } from './config'
import type { Database } from './db/client'
import { errorPlugin } from './http/error-plugin'
import { requestIdPlugin } from './http/request-id'
import { healthModule } from './modules/health'

export type AppContext = {
  config: Config & { appSecret: string }
  database: Database
  now?: () => Date // injectable clock for rate-limit windows and snapshots
}

export function buildApp(context: AppContext) {
  return new Elysia()
    .use(requestIdPlugin)
    .use(errorPlugin)
    .use(healthModule(context))
}

export type App = ReturnType<typeof buildApp>
