/**
 * Support for the entity and claim tests: the app with only the gate and the modules under test
 * (so they do not depend on the wiring in src/modules/v1/index.ts), and knowledge rows that the
 * shared fixtures leave out (paper_count, kept by the refresh job; created_at to the microsecond).
 */
import { eq, sql } from 'drizzle-orm'
import { Elysia } from 'elysia'
import type { Database, Db } from '../../src/db/client'
import { claims, entities } from '../../src/db/schema'
import { errorPlugin } from '../../src/http/error-plugin'
import { requestIdPlugin } from '../../src/http/request-id'
import { KeyAuthenticator } from '../../src/modules/v1/auth'
import { claimsModule } from '../../src/modules/v1/claims'
import type { V1Context } from '../../src/modules/v1/context'
import { entitiesModule } from '../../src/modules/v1/entities'
import { v1Gate } from '../../src/modules/v1/gate'
import { MemoryRateLimitStore } from '../../src/modules/v1/rate-limit/memory-store'
import { TEST_SECRET, req } from './app'
import { bearer, insertEntity } from './fixtures'

export const BASE_URL = 'https://geroscope.test'

/** The /api/v1 gate with the entities and claims modules, over `database`. */
export async function knowledgeApp(database: Database) {
  const ctx: V1Context = { db: database.db, baseUrl: BASE_URL, secret: TEST_SECRET }
  return new Elysia()
    .use(requestIdPlugin)
    .use(errorPlugin)
    .use(v1Gate({
      keys: new KeyAuthenticator(database.db),
      limits: await MemoryRateLimitStore.open(database, new Date(), { flushEveryMs: 0 }),
      now: () => new Date(),
    }))
    .use(entitiesModule(ctx))
    .use(claimsModule(ctx))
}

/** A GET with the key, answering status, JSON body and headers. */
export function getter(app: { handle: (request: Request) => Promise<Response> }, key: () => string) {
  return async (path: string) => {
    const response = await app.handle(req(path, bearer(key())))
    return { status: response.status, body: await response.json(), headers: response.headers }
  }
}

/** An entity with the paper_count the minute refresh would have set. */
export async function insertCountedEntity(db: Db, type: string, key: string, name: string, paperCount: number, ids: Record<string, string> = {}) {
  const row = await insertEntity(db, type, key, name, ids)
  await db.update(entities).set({ paperCount }).where(eq(entities.id, row.id))
  return { ...row, paperCount }
}

/** Sets a claim's created_at from text, so tests can use microseconds (a JS Date stops at milliseconds). */
export async function setClaimCreatedAt(db: Db, claimId: number, timestamp: string) {
  await db.update(claims).set({ createdAt: sql`${timestamp}::timestamptz` }).where(eq(claims.id, claimId))
}

/** Follows next_cursor from `path` (which must end with its query) until the last page; returns every page's body. */
export async function walk(get: (path: string) => Promise<{ status: number; body: any }>, path: string) {
  const pages: any[] = []
  let cursor: string | null = null
  do {
    const { status, body } = await get(`${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    if (status !== 200) throw new Error(`walk got ${status}: ${JSON.stringify(body)}`)
    pages.push(body)
    cursor = body.pagination.next_cursor
  } while (cursor)
  return pages
}
