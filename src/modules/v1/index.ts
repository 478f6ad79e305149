/** The Data API under /api/v1: the gate, then one plugin per resource. */
import { Elysia } from 'elysia'
import type { AppContext } from '../../app'
import { KeyAuthenticator } from './auth'
import type { V1Context } from './context'
import { v1Gate } from './gate'
import { claimsModule } from './claims'
import { entitiesModule } from './entities'
import { papersModule } from './papers'
import { searchModule } from './search'

export const dataApi = (context: AppContext, keys: KeyAuthenticator) => {
  const v1: V1Context = { db: context.database.db, baseUrl: context.config.publicBaseUrl, secret: context.config.appSecret }
  return new Elysia({ name: 'v1' })
    .use(v1Gate({ keys, limits: context.limits, now: context.now ?? (() => new Date()) }))
    .use(papersModule(v1))
    .use(searchModule(v1))
    .use(entitiesModule(v1))
    .use(claimsModule(v1))
}
