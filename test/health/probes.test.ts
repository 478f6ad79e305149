/** /healthz and /readyz: for load balancers, outside /api/v1, no key, JSON envelopes when not ready. */
import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { openDatabase } from '../../src/db/client'
import type { Lifecycle } from '../../src/modules/app-context'
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store'
import { shippedMigrations } from '../../src/modules/health/readiness'
import { req, testApp, useTestApp } from '../support/app'
import { freshDatabase, testDriver } from '../support/database'
import { startMeiliReplay } from '../support/meili-replay'

const lifecycle: Lifecycle = { draining: false }
const api = useTestApp(() => ({ lifecycle }))
const shipped = shippedMigrations()

describe(`probes on ${testDriver}`, () => {
  test('/healthz: the process is up, without a key, never cached', async () => {
    const response = await api.app.handle(req('/healthz'))
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toEqual({ data: { status: 'ok' } })
  })

  test('/readyz: the database answers with every migration applied, and search runs on PostgreSQL', async () => {
    const response = await api.app.handle(req('/readyz'))
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toEqual({
      data: {
        status: 'ready',
        database: { driver: testDriver, migrations: { applied: shipped.count, expected: shipped.count } },
        search: { backend: 'postgres' },
      },
    })
    expect(shipped.count).toBeGreaterThan(10)
  })

  test('/readyz while shutting down: 503 unavailable, so the balancer stops sending before the server stops', async () => {
    lifecycle.draining = true
    try {
      const response = await api.app.handle(req('/readyz'))
      expect(response.status).toBe(503)
      expect(response.headers.get('retry-after')).toBe('5')
      expect(await response.json()).toEqual({
        error: { status: 503, code: 'unavailable', message: 'the service is shutting down' },
      })
      expect((await api.app.handle(req('/healthz'))).status).toBe(200) // still alive: nothing should restart it
    } finally {
      lifecycle.draining = false
    }
  })

  test('/readyz on a database whose schema is behind this build: 503 naming the count', async () => {
    const behind = await freshDatabase()
    try {
      await behind.rows(
        sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
      )
      const response = await (await testApp(behind)).handle(req('/readyz'))
      expect(response.status).toBe(503)
      expect(await response.json()).toEqual({
        error: {
          status: 503,
          code: 'unavailable',
          message: `the database schema is behind this build: ${shipped.count - 1} of ${shipped.count} migrations applied`,
        },
      })
    } finally {
      await behind.close()
    }
  })

  test('/readyz and /health with the database down: 503 unavailable in the envelope, at once', async () => {
    // A PostgreSQL address nothing listens on: the connection is refused.
    const down = await openDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/geroscope', max: 1 })
    try {
      // The rate limiter's saved counts are read at start-up, from a database that answered then.
      const app = await testApp(down, { limits: await MemoryRateLimitStore.open(api.database, new Date()) })
      const started = performance.now()
      for (const path of ['/readyz', '/health']) {
        const response = await app.handle(req(path))
        expect(response.status).toBe(503)
        expect(response.headers.get('content-type')).toContain('application/json')
        expect((await response.json()).error).toMatchObject({ status: 503, code: 'unavailable' })
      }
      expect(performance.now() - started).toBeLessThan(3000)
      expect((await app.handle(req('/healthz'))).status).toBe(200)
    } finally {
      await down.close()
    }
  })

  test('/readyz with Meilisearch: says whether it answers, and stays ready when it does not (search falls back)', async () => {
    const meili = startMeiliReplay()
    try {
      const up = await testApp(api.database, {}, { MEILI_HOST: meili.url })
      expect((await (await up.handle(req('/readyz'))).json()).data.search).toEqual({
        backend: 'meilisearch',
        meilisearch: 'available',
      })
      expect(meili.requests.map((r) => r.path)).toContain('/health')
    } finally {
      meili.stop()
    }
    const gone = await testApp(api.database, {}, { MEILI_HOST: meili.url })
    const response = await gone.handle(req('/readyz'))
    expect(response.status).toBe(200)
    expect((await response.json()).data.search).toEqual({ backend: 'meilisearch', meilisearch: 'unreachable' })
  })
})
