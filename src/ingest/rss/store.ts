/**
 * New feed articles, deduplicated by guid, then link, then DOI, against each other and against
 * every article already stored (from any source: the same preprint often appears in two feeds).
 * An article whose DOI is a paper's is linked to it (the harvest links the other way round).
 */
import { inArray, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { articles, papers } from '../../db/schema'
import type { FeedArticle } from './parse'

export type StoredArticles = { added: number; linked: number }

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

export async function storeArticles(db: Db, sourceId: number, items: FeedArticle[]): Promise<StoredArticles> {
  const candidates = distinctArticles(items)
  if (candidates.length === 0) return { added: 0, linked: 0 }
  const guids = candidates.flatMap((a) => (a.guid ? [a.guid] : []))
  const links = candidates.flatMap((a) => (a.link ? [a.link] : []))
  const dois = candidates.flatMap((a) => (a.doi ? [a.doi] : []))
  const known = await db.select({ guid: articles.guid, link: articles.link, doi: articles.doi }).from(articles).where(or(
    guids.length ? inArray(articles.guid, guids) : sql`false`,
    links.length ? inArray(articles.link, links) : sql`false`,
    dois.length ? inArray(articles.doi, dois) : sql`false`,
  ))
  const has = { guid: new Set(known.map((k) => k.guid)), link: new Set(known.map((k) => k.link)), doi: new Set(known.map((k) => k.doi)) }
  const fresh = candidates.filter((a) => !(a.guid && has.guid.has(a.guid)) && !(a.link && has.link.has(a.link)) && !(a.doi && has.doi.has(a.doi)))
  if (fresh.length === 0) return { added: 0, linked: 0 }

  const freshDois = fresh.flatMap((a) => (a.doi ? [a.doi] : []))
  const paperByDoi = new Map<string, string>()
  if (freshDois.length) {
    const rows = await db.select({ id: papers.id, doi: papers.doi }).from(papers).where(inArray(papers.doi, freshDois)).orderBy(papers.id)
    for (const row of rows) if (row.doi && !paperByDoi.has(row.doi)) paperByDoi.set(row.doi, row.id)
  }
  // A concurrent scrape may have stored the same guid or link meanwhile: the unique indexes keep one.
  const inserted = await db.insert(articles).values(fresh.map((a) => ({
    sourceId, guid: a.guid, link: a.link, doi: a.doi, title: a.title, summary: a.summary, author: a.author,
    publishedAt: a.publishedAt, paperId: a.doi ? paperByDoi.get(a.doi) ?? null : null,
  }))).onConflictDoNothing().returning({ paperId: articles.paperId })
  return { added: inserted.length, linked: inserted.filter((r) => r.paperId !== null).length }
}
