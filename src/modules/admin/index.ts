/**
 * The admin interface under /api: the gate (session, rate limit, cross-site refusal, access), then
 * one plugin per area. Areas never authenticate; what the gate lets through is decided in
 * access.ts, where every path is for operators unless listed. A new area is one `.use(...)` below.
 */
import { Elysia, type AnyElysia } from 'elysia'
import type { AppContext } from '../app-context'
import { ApiError } from '../../http/errors'
import { dummyPasswordHash } from '../../accounts/accounts'
import { accountsModule } from './accounts'
import { briefsModule } from './briefs'
import { authModule } from './auth'
import { sessionPolicy, type Session } from '../../accounts/sessions'
import type { AdminContext } from './context'
import { adminGate } from './gate'
import { intelligenceModule } from './intelligence'
import { jobsModule } from './jobs'
import { keysModule } from './keys'
import { overviewModule } from './overview'
import { adminOpenApi } from './openapi'
import { promptsModule } from './prompts'
import { reviewModule } from './review'
import { sourcesModule } from './sources'
import { storiesModule } from './stories'

/**
 * `root` is the whole application, whose routes the OpenAPI document describes; `dataChanged`
 * empties this process's cached Data API answers (the database's NOTIFY does too, a moment later).
 */
export const adminApi = (context: AppContext, root: () => AnyElysia, dataChanged: () => void = () => {}) => {
  const { database, config, limits } = context
  const now = context.now ?? (() => new Date())
  const policy = sessionPolicy(config.sessions)
  const sessions = new WeakMap<Request, Session>()
  const admin: AdminContext = {
    database,
    db: database.db,
    config,
    baseUrl: config.publicBaseUrl,
    secret: config.appSecret,
    now,
    llm: config.llm,
    dataChanged,
    caller: (request) => {
      const session = sessions.get(request)
      if (!session) throw new ApiError('unauthenticated', 'sign in first: POST /api/auth/login')
      return session
    },
  }
  void dummyPasswordHash().catch(() => {}) // made now, so the first login for an unknown name is not slower than others
  return (
    new Elysia({ name: 'admin' })
      .use(adminGate({ db: database.db, config, limits, now, policy, sessions }))
      .use(adminOpenApi(config.publicBaseUrl, root))
      // Any signed-in account: its session and its own keys.
      .use(authModule(admin, policy))
      .use(keysModule(admin))
      // Operators only.
      .use(accountsModule(admin))
      .use(sourcesModule(admin))
      .use(jobsModule(admin))
      .use(overviewModule(admin))
      .use(promptsModule(admin))
      .use(reviewModule(admin))
      .use(intelligenceModule(admin))
      .use(storiesModule(admin))
      .use(briefsModule({ ...admin, accountOf: ({ request }) => admin.caller(request as Request).account.id }))
  )
}
