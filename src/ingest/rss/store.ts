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
import { or, sql, type SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import type { Db } from '../../db/client'
import { articles, papers } from '../../db/schema'
import type { FeedArticle } from './article'

export type StoredArticles = { added: number; linked: number }

/** Rows per insert: 10 parameters each, so 10,000 per statement. */
const INSERT_BATCH = 1000

/** `column = any($1::text[])`: one parameter however long the list, and `false` for none. */
const anyOf = (column: PgColumn, values: string[]): SQL => (values.length ? sql`${column} = any(${sql.param(values)}::text[])` : sql`false`)

/** Drops repeats inside one feed: an item is a repeat if its guid, link or DOI came before. */
export function distinctArticles(items: FeedArticle[]): FeedArticle[] {
  const seen = { guid: new Set<string>(), link: new Set<string>(), doi: new Set<string>() }
  return items.filter((a) => {
    if ((a.guid && seen.guid.has(a.guid)) || (a.link && seen.link.has(a.link)) || (a.doi && seen.doi.has(a.doi))) return false
    if (a.guid) seen.guid.add(a.guid)
    if (a.link) seen.link.add(a.link)
    if (a.doi) seen.doi.add(a.doi)
    return true
  })
}

type Known = { id: number; sourceId: number; copyOf: number | null; guid: string | null; link: string | null; doi: string | null }

/** Finds, for an article, the first stored copy from another source (by guid, link or DOI); null when there is none. */
function copyFinder(others: Known[]): (article: FeedArticle) => number | null {
  const first = { guid: new Map<string, number>(), link: new Map<string, number>(), doi: new Map<string, number>() }
  for (const k of others) {
    const root = k.copyOf ?? k.id
    for (const key of ['guid', 'link', 'doi'] as const) {
      const value = k[key]
      if (value === null) continue
      const earlier = first[key].get(value)
      if (earlier === undefined || root < earlier) first[key].set(value, root)
    }
  }
  return (article) => {
    const roots = (['guid', 'link', 'doi'] as const).flatMap((key) => {
      const root = article[key] === null ? undefined : first[key].get(article[key])
      return root === undefined ? [] : [root]
    })
    return roots.length ? Math.min(...roots) : null
  }
}

export async function storeArticles(db: Db, sourceId: number, items: FeedArticle[]): Promise<StoredArticles> {
  const candidates = distinctArticles(items)
  if (candidates.length === 0) return { added: 0, linked: 0 }
  const guids = candidates.flatMap((a) => (a.guid ? [a.guid] : []))
  const links = candidates.flatMap((a) => (a.link ? [a.link] : []))
  const dois = candidates.flatMap((a) => (a.doi ? [a.doi] : []))
  const known: Known[] = await db.select({
    id: articles.id, sourceId: articles.sourceId, copyOf: articles.copyOf, guid: articles.guid, link: articles.link, doi: articles.doi,
  }).from(articles).where(or(anyOf(articles.guid, guids), anyOf(articles.link, links), anyOf(articles.doi, dois)))
  const own = known.filter((k) => k.sourceId === sourceId)
  const has = { guid: new Set(own.map((k) => k.guid)), link: new Set(own.map((k) => k.link)), doi: new Set(own.map((k) => k.doi)) }
  const fresh = candidates.filter((a) => !(a.guid && has.guid.has(a.guid)) && !(a.link && has.link.has(a.link)) && !(a.doi && has.doi.has(a.doi)))
  if (fresh.length === 0) return { added: 0, linked: 0 }
  const firstCopy = copyFinder(known.filter((k) => k.sourceId !== sourceId))

  const freshDois = fresh.flatMap((a) => (a.doi ? [a.doi] : []))
  const paperByDoi = new Map<string, string>()
  if (freshDois.length) {
    const rows = await db.select({ id: papers.id, doi: papers.doi }).from(papers).where(anyOf(papers.doi, freshDois)).orderBy(papers.id)
    for (const row of rows) if (row.doi && !paperByDoi.has(row.doi)) paperByDoi.set(row.doi, row.id)
  }
  // A concurrent scrape of this source may have stored the same guid or link meanwhile: the unique indexes keep one.
  const stored: StoredArticles = { added: 0, linked: 0 }
  for (let at = 0; at < fresh.length; at += INSERT_BATCH) {
    const inserted = await db.insert(articles).values(fresh.slice(at, at + INSERT_BATCH).map((a) => ({
      sourceId, guid: a.guid, link: a.link, doi: a.doi, title: a.title, summary: a.summary, author: a.author,
      publishedAt: a.publishedAt, paperId: a.doi ? paperByDoi.get(a.doi) ?? null : null, copyOf: firstCopy(a),
    }))).onConflictDoNothing().returning({ paperId: articles.paperId })
    stored.added += inserted.length
    stored.linked += inserted.filter((r) => r.paperId !== null).length
  }
  return stored
}
