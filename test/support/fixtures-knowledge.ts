/**
 * Support for the entity and claim tests: the app
 * (the whole app, as it is wired), and knowledge rows that the
 * shared fixtures leave out (paper_count, kept by the refresh job; created_at to the microsecond).
 */
import { eq, sql } from 'drizzle-orm'
import type { Database, Db } from '../../src/db/client'
import { claims, entities } from '../../src/db/schema'
import { req, testApp } from './app'
import { bearer, insertEntity } from './fixtures'

export const BASE_URL = 'https://geroscope.test'

/** The whole app over `database` (kept as a name the knowledge tests read well with). */
export const knowledgeApp = (database: Database) => testApp(database)

/** A GET with the key, answering status, JSON body and headers. */
export function getter(app: { handle: (request: Request) => Promise<Response> }, key: () => string) {
  return async (path: string) => {
    const response = await app.handle(req(path, bearer(key())))
    return { status: response.status, body: await response.json(), headers: response.headers }
  }
}

/** An entity with the paper_count the minute refresh would have set. */
export async function insertCountedEntity(
  db: Db,
  type: string,
  key: string,
  name: string,
  paperCount: number,
  ids: Record<string, string> = {},
) {
  const row = await insertEntity(db, type, key, name, ids)
  await db.update(entities).set({ paperCount }).where(eq(entities.id, row.id))
  return { ...row, paperCount }
}

/** Sets a claim's created_at from text, so tests can use microseconds (a JS Date stops at milliseconds). */
export async function setClaimCreatedAt(db: Db, claimId: number, timestamp: string) {
  await db
    .update(claims)
    .set({ createdAt: sql`${timestamp}::timestamptz` })
    .where(eq(claims.id, claimId))
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
