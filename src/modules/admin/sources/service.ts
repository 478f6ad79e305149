/**
 * RSS/Atom sources for operators. A URL must be http or https and, unless SCRAPE_ALLOW_PRIVATE is
 * on, name a host on the public internet: the same guard the scraper applies to every fetch and
 * redirect (src/pipeline/ingest/rss/address.ts), checked here too so an operator learns at once, and the
 * service's own network cannot be reached through a feed.
 */
import { asc, count, eq, getTableColumns } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { articles, rssSources } from '../../../db/schema'
import { conflict, invalidParameter, notFound } from '../../../http/errors'
import { RefusedAddressError, assertPublicHost } from '../../../pipeline/ingest/rss/address'

type SourceRow = typeof rssSources.$inferSelect & { articleCount: number }

const iso = (d: Date | null) => d?.toISOString() ?? null

export function serializeSource(s: SourceRow) {
  return {
    id: s.id,
    name: s.name,
    url: s.url,
    enabled: s.enabled,
    tags: s.tags,
    created_at: s.createdAt.toISOString(),
    last_fetched_at: iso(s.lastFetchedAt),
    last_success_at: iso(s.lastSuccessAt),
    last_status:
      s.lastFetchedAt === null ? ('never' as const) : s.lastError === null ? ('ok' as const) : ('failed' as const),
    last_error: s.lastError,
    consecutive_failures: s.consecutiveFailures,
    article_count: s.articleCount,
  }
}

const DNS_TIMEOUT_MS = 5000

/** The URL as it will be stored (normalised, without a fragment), or a 400 saying why not. */
export async function checkFeedUrl(raw: string, allowPrivate: boolean): Promise<string> {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    throw invalidParameter(`url must be an absolute http or https URL (got "${raw.slice(0, 200)}")`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidParameter(`url must use http or https (got ${url.protocol})`)
  if (url.username || url.password) throw invalidParameter('url must not contain a username or password')
  url.hash = ''
  if (!allowPrivate) {
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), DNS_TIMEOUT_MS)
    })
    try {
      await Promise.race([assertPublicHost(url.hostname), timeout])
    } catch (error) {
      if (error instanceof RefusedAddressError)
        throw invalidParameter(`url is refused: ${error.message.replace(/^refused to fetch from /, '')}`)
      throw invalidParameter(
        `url: the host ${url.hostname} cannot be ` +
          `resolved${(error as Error).message === 'timeout' ? ` within ${DNS_TIMEOUT_MS / 1000} s` : ''}`,
      )
    } finally {
      clearTimeout(timer)
    }
  }
  return url.href
}

async function readSources(db: Db, id?: number): Promise<SourceRow[]> {
  const counts = db
    .select({ sourceId: articles.sourceId, n: count().as('n') })
    .from(articles)
    .groupBy(articles.sourceId)
    .as('counts')
  const rows = await db
    .select({ ...getTableColumns(rssSources), articleCount: counts.n })
    .from(rssSources)
    .leftJoin(counts, eq(counts.sourceId, rssSources.id))
    .where(id === undefined ? undefined : eq(rssSources.id, id))
    .orderBy(asc(rssSources.id))
  return rows.map((r) => ({ ...r, articleCount: Number(r.articleCount ?? 0) }))
}

export async function listSources(db: Db) {
  return (await readSources(db)).map(serializeSource)
}

export async function getSource(db: Db, id: number) {
  const [row] = await readSources(db, id)
  if (!row) throw notFound(`no source with id ${id}`)
  return serializeSource(row)
}

export type NewSource = { name: string; url: string; enabled?: boolean; tags?: string[] }

export async function addSource(db: Db, input: NewSource, allowPrivate: boolean) {
  const url = await checkFeedUrl(input.url, allowPrivate)
  const [row] = await db
    .insert(rssSources)
    .values({ name: input.name.trim(), url, enabled: input.enabled ?? true, tags: input.tags ?? [] })
    .onConflictDoNothing({ target: rssSources.url })
    .returning({ id: rssSources.id })
  if (!row) throw conflict(`a source with the URL ${url} already exists`)
  return getSource(db, row.id)
}

export type SourceChanges = { name?: string; enabled?: boolean; tags?: string[] }

export async function updateSource(db: Db, id: number, changes: SourceChanges) {
  if (changes.name === undefined && changes.enabled === undefined && changes.tags === undefined) {
    throw invalidParameter('give at least one of name, enabled, tags')
  }
  const [row] = await db
    .update(rssSources)
    .set({ name: changes.name?.trim(), enabled: changes.enabled, tags: changes.tags })
    .where(eq(rssSources.id, id))
    .returning({ id: rssSources.id })
  if (!row) throw notFound(`no source with id ${id}`)
  return getSource(db, id)
}

/** Deletes a source with its articles (and their analyses). */
export async function deleteSource(db: Db, id: number) {
  return db.transaction(async (tx) => {
    const gone = await tx.delete(articles).where(eq(articles.sourceId, id)).returning({ id: articles.id })
    const [row] = await tx.delete(rssSources).where(eq(rssSources.id, id)).returning({ id: rssSources.id })
    if (!row) throw notFound(`no source with id ${id}`)
    return { id, deleted: true as const, deleted_articles: gone.length }
  })
}
