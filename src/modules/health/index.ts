/**
 * Probes for load balancers and orchestrators, outside /api/v1 and without a key:
 * - GET /healthz: the process is up and serving (no I/O);
 * - GET /readyz: it can do its work: the database answers, its migrations are applied, and not
 *   shutting down; it also says which search backend is in use. 503 `unavailable` otherwise;
 * - GET /health: the older probe (process up and database reachable), kept for existing checks.
 */
import { sql } from 'drizzle-orm'
import { Elysia, t } from 'elysia'
import type { AppContext } from '../app-context'
import { RETRY_AFTER_UNAVAILABLE } from '../../http/error-plugin'
import { ApiError } from '../../http/errors'
import { isDatabaseUnavailable } from '../../db/database-errors'
import { migrationState, searchStateProbe, shippedMigrations } from './readiness'

const unavailable = (message: string) =>
  new ApiError('unavailable', message, { 'retry-after': RETRY_AFTER_UNAVAILABLE })

const SearchState = t.Union([
  t.Object({ backend: t.Literal('postgres') }),
  t.Object({
    backend: t.Literal('meilisearch'),
    meilisearch: t.Union([t.Literal('available'), t.Literal('unreachable')]),
  }),
])

export const healthModule = ({ database, config, lifecycle }: AppContext) => {
  const shipped = shippedMigrations()
  const searchState = searchStateProbe(config)
  return new Elysia({ name: 'health' })
    .onAfterHandle(({ set }) => {
      set.headers['cache-control'] = 'no-store'
    })
    .get('/healthz', () => ({ data: { status: 'ok' as const } }), {
      response: { 200: t.Object({ data: t.Object({ status: t.Literal('ok') }) }) },
      detail: { hide: true },
    })
    .get(
      '/readyz',
      async () => {
        if (lifecycle?.draining) throw unavailable('the service is shutting down')
        const [migrations, search] = await Promise.all([
          migrationState(database, shipped).catch((error: unknown) => {
            if (isDatabaseUnavailable(error)) throw error // the error plugin's 503
            throw unavailable(`the database cannot be queried: ${(error as Error).message}`)
          }),
          searchState(),
        ])
        if (!migrations.current) {
          throw unavailable(
            `the database schema is behind this build: ${migrations.applied} of ${migrations.expected} migrations ` +
              `applied`,
          )
        }
        return {
          data: {
            status: 'ready' as const,
            database: {
              driver: database.driver,
              migrations: { applied: migrations.applied, expected: migrations.expected },
            },
            search,
          },
        }
      },
      {
        response: {
          200: t.Object({
            data: t.Object({
              status: t.Literal('ready'),
              database: t.Object({
                driver: t.String(),
                migrations: t.Object({ applied: t.Integer(), expected: t.Integer() }),
              }),
              search: SearchState,
            }),
          }),
        },
        detail: { hide: true },
      },
    )
    .get(
      '/health',
      async () => {
        await database.rows(sql`select 1`)
        return { data: { status: 'ok' as const, database: database.driver } }
      },
      {
        response: { 200: t.Object({ data: t.Object({ status: t.Literal('ok'), database: t.String() }) }) },
        detail: { hide: true },
      },
    )
}
