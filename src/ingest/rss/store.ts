/**
 * New feed articles, deduplicated by guid, then link, then DOI, against each other and against
 * every article already stored (from any source: the same preprint often appears in two feeds).
 * An article whose DOI is a paper's is linked to it (the harvest links the other way round).
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

/** Rows per insert: 9 parameters each, so 9,000 per statement. */
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

export async function storeArticles(db: Db, sourceId: number, items: FeedArticle[]): Promise<StoredArticles> {
  const candidates = distinctArticles(items)
  if (candidates.length === 0) return { added: 0, linked: 0 }
  const guids = candidates.flatMap((a) => (a.guid ? [a.guid] : []))
  const links = candidates.flatMap((a) => (a.link ? [a.link] : []))
  const dois = candidates.flatMap((a) => (a.doi ? [a.doi] : []))
  const known = await db.select({ guid: articles.guid, link: articles.link, doi: articles.doi }).from(articles)
    .where(or(anyOf(articles.guid, guids), anyOf(articles.link, links), anyOf(articles.doi, dois)))
  const has = { guid: new Set(known.map((k) => k.guid)), link: new Set(known.map((k) => k.link)), doi: new Set(known.map((k) => k.doi)) }
  const fresh = candidates.filter((a) => !(a.guid && has.guid.has(a.guid)) && !(a.link && has.link.has(a.link)) && !(a.doi && has.doi.has(a.doi)))
  if (fresh.length === 0) return { added: 0, linked: 0 }

  const freshDois = fresh.flatMap((a) => (a.doi ? [a.doi] : []))
  const paperByDoi = new Map<string, string>()
  if (freshDois.length) {
    const rows = await db.select({ id: papers.id, doi: papers.doi }).from(papers).where(anyOf(papers.doi, freshDois)).orderBy(papers.id)
    for (const row of rows) if (row.doi && !paperByDoi.has(row.doi)) paperByDoi.set(row.doi, row.id)
  }
  // A concurrent scrape may have stored the same guid or link meanwhile: the unique indexes keep one.
  const stored: StoredArticles = { added: 0, linked: 0 }
  for (let at = 0; at < fresh.length; at += INSERT_BATCH) {
    const inserted = await db.insert(articles).values(fresh.slice(at, at + INSERT_BATCH).map((a) => ({
      sourceId, guid: a.guid, link: a.link, doi: a.doi, title: a.title, summary: a.summary, author: a.author,
      publishedAt: a.publishedAt, paperId: a.doi ? paperByDoi.get(a.doi) ?? null : null,
    }))).onConflictDoNothing().returning({ paperId: articles.paperId })
    stored.added += inserted.length
    stored.linked += inserted.filter((r) => r.paperId !== null).length
  }
  return stored
}
