/**
 * New feed articles of one source, deduplicated by guid, then link, then DOI, against each other and
 * against what that source already stored. Another source's article with the same guid, link or DOI
 * does not stop one: the same preprint often appears in two feeds, and a feed could claim a real
 * article's link first to have its own words cited under it. Each source keeps its own text; the
 * later copy points at the first (articles.copy_of). An article whose DOI is a paper's is linked to
 * it (the harvest links the other way round).
 *
 * A feed may hold any number of items: look-ups pass each list as one array parameter, and rows go
 * in by batches, both well under PostgreSQL's 65,535 parameters per statement.
 */
import { and, eq, ne, or, sql, type SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import type { Db } from '../../../db/client'
import { articles, papers } from '../../../db/schema'
import type { FeedArticle } from './article'

export type StoredArticles = { added: number; linked: number }

/** Rows per insert: 9 parameters each, so 9,000 per statement. */
const INSERT_BATCH = 1000

/** `column = any($1::text[])`: one parameter however long the list, and `false` for none. */
const anyOf = (column: PgColumn, values: string[]): SQL =>
  values.length ? sql`${column} = any(${sql.param(values)}::text[])` : sql`false`

/** Drops repeats inside one feed: an item is a repeat if its guid, link or DOI came before. */
export function distinctArticles(items: FeedArticle[]): FeedArticle[] {
  const seen = { guid: new Set<string>(), link: new Set<string>(), doi: new Set<string>() }
  return items.filter((a) => {
    if ((a.guid && seen.guid.has(a.guid)) || (a.link && seen.link.has(a.link)) || (a.doi && seen.doi.has(a.doi)))
      return false
    if (a.guid) seen.guid.add(a.guid)
    if (a.link) seen.link.add(a.link)
    if (a.doi) seen.doi.add(a.doi)
    return true
  })
}

type Stored = {
  id: number
  sourceId: number
  copyOf: number | null
  guid: string | null
  link: string | null
  doi: string | null
}
const KEYS = ['guid', 'link', 'doi'] as const
type Keys = Record<(typeof KEYS)[number], string[]>

const keysOf = (items: { guid: string | null; link: string | null; doi: string | null }[]): Keys => ({
  guid: items.flatMap((a) => (a.guid ? [a.guid] : [])),
  link: items.flatMap((a) => (a.link ? [a.link] : [])),
  doi: items.flatMap((a) => (a.doi ? [a.doi] : [])),
})

/** The stored articles with any of these guids, links or DOIs: of one source, of every other source, or of all. */
function storedWith(db: Db, keys: Keys, sources: SQL | undefined = undefined): Promise<Stored[]> {
  return db
    .select({
      id: articles.id,
      sourceId: articles.sourceId,
      copyOf: articles.copyOf,
      guid: articles.guid,
      link: articles.link,
      doi: articles.doi,
    })
    .from(articles)
    .where(
      and(sources, or(anyOf(articles.guid, keys.guid), anyOf(articles.link, keys.link), anyOf(articles.doi, keys.doi))),
    )
}

/**
 * What each article's copy_of should be: the first article (lowest id) of another source with the
 * same guid, link or DOI stored before it; null when there is none.
 */
function firstCopies(rows: Stored[]): Map<number, number | null> {
  const groups = KEYS.map(() => new Map<string, Stored[]>())
  for (const row of rows) {
    KEYS.forEach((key, k) => {
      const value = row[key]
      if (value === null) return
      const group = groups[k].get(value)
      if (group) group.push(row)
      else groups[k].set(value, [row])
    })
  }
  const first = new Map<number, number | null>()
  for (const row of rows) {
    let earliest: number | null = null
    KEYS.forEach((key, k) => {
      const value = row[key]
      for (const other of value === null ? [] : groups[k].get(value)!) {
        const earlier = other.sourceId !== row.sourceId && other.id < row.id
        if (earlier && (earliest === null || other.id < earliest)) earliest = other.id
      }
    })
    first.set(row.id, earliest)
  }
  return first
}

/**
 * Two sources scraped at once may each store an item before seeing the other's copy. After its
 * insert, a scrape that finds another source's copy it did not know of recomputes copy_of over
 * every copy of its items; whichever of the two looks last sees both.
 */
async function relinkIfRaced(db: Db, sourceId: number, keys: Keys, known: Set<number>): Promise<void> {
  const others = await storedWith(db, keys, ne(articles.sourceId, sourceId))
  if (others.every((row) => known.has(row.id))) return
  const rows = await storedWith(db, keys)
  const first = firstCopies(rows)
  for (const row of rows) {
    const copyOf = first.get(row.id) ?? null
    if (copyOf !== row.copyOf) await db.update(articles).set({ copyOf }).where(eq(articles.id, row.id))
  }
}

export async function storeArticles(db: Db, sourceId: number, items: FeedArticle[]): Promise<StoredArticles> {
  const candidates = distinctArticles(items)
  if (candidates.length === 0) return { added: 0, linked: 0 }
  const known = await storedWith(db, keysOf(candidates))
  const own = known.filter((k) => k.sourceId === sourceId)
  const has = {
    guid: new Set(own.map((k) => k.guid)),
    link: new Set(own.map((k) => k.link)),
    doi: new Set(own.map((k) => k.doi)),
  }
  const fresh = candidates.filter(
    (a) => !(a.guid && has.guid.has(a.guid)) && !(a.link && has.link.has(a.link)) && !(a.doi && has.doi.has(a.doi)),
  )
  if (fresh.length === 0) return { added: 0, linked: 0 }
  const copyOf = firstCopyFinder(known.filter((k) => k.sourceId !== sourceId))

  const freshKeys = keysOf(fresh)
  const paperByDoi = new Map<string, string>()
  if (freshKeys.doi.length) {
    const rows = await db
      .select({ id: papers.id, doi: papers.doi })
      .from(papers)
      .where(anyOf(papers.doi, freshKeys.doi))
      .orderBy(papers.id)
    for (const row of rows) if (row.doi && !paperByDoi.has(row.doi)) paperByDoi.set(row.doi, row.id)
  }
  // A concurrent scrape of this source may have stored the same guid or link meanwhile: the unique indexes keep one.
  const stored: StoredArticles = { added: 0, linked: 0 }
  for (let at = 0; at < fresh.length; at += INSERT_BATCH) {
    const inserted = await db
      .insert(articles)
      .values(
        fresh.slice(at, at + INSERT_BATCH).map((a) => ({
          sourceId,
          guid: a.guid,
          link: a.link,
          doi: a.doi,
          title: a.title,
          summary: a.summary,
          author: a.author,
          publishedAt: a.publishedAt,
          paperId: a.doi ? (paperByDoi.get(a.doi) ?? null) : null,
          copyOf: copyOf(a),
        })),
      )
      .onConflictDoNothing()
      .returning({ paperId: articles.paperId })
    stored.added += inserted.length
    stored.linked += inserted.filter((r) => r.paperId !== null).length
  }
  if (stored.added > 0) await relinkIfRaced(db, sourceId, freshKeys, new Set(known.map((k) => k.id)))
  return stored
}

/** For an article about to be stored (after every stored one): the first of another source's with one of its keys. */
function firstCopyFinder(others: Stored[]): (article: FeedArticle) => number | null {
  const first = KEYS.map(() => new Map<string, number>())
  for (const row of others) {
    KEYS.forEach((key, k) => {
      const value = row[key]
      if (value !== null && !(first[k].has(value) && first[k].get(value)! < row.id)) first[k].set(value, row.id)
    })
  }
  return (article) => {
    const ids = KEYS.flatMap((key, k) => {
      const value = article[key]
      const id = value === null ? undefined : first[k].get(value)
      return id === undefined ? [] : [id]
    })
    return ids.length ? Math.min(...ids) : null
  }
}
