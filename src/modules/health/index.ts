/** GET /health: liveness and database reachability, for load balancers and the start-up check. */
import { sql } from 'drizzle-orm'
import { Elysia, t } from 'elysia'
import type { AppContext } from '../../app'

export const healthModule = ({ database }: AppContext) =>
  new Elysia({ name: 'health' })
    .get('/health', async () => {
      await database.rows(sql`select 1`)
      return { data: { status: 'ok' as const, database: database.driver } }
    }, {
      response: { 200: t.Object({ data: t.Object({ status: t.Literal('ok'), database: t.String() }) }) },
      detail: { hide: true },
    })
