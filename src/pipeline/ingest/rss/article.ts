/**
 * Feed items (as rss-parser reads them) to articles we can store. Everything in an item comes from
 * a stranger, so this is where it is made safe:
 * - every text is storable (db/storable-text.ts) and bounded;
 * - a link is kept only if it is an absolute http(s) URL: `javascript:`, `data:`, relative or
 *   malformed links never reach a page or the console;
 * - guids, links and DOIs longer than the unique indexes can hold are dropped, not left to fail
 *   the feed's insert on every run;
 * - an item whose link was refused is kept only if a guid or DOI still identifies it, and an item
 *   needs a title or a link to show.
 * What was dropped is counted for the source's result.
 */
import type Parser from 'rss-parser'
import { storable } from '../../../db/storable-text'
import { findDoi } from './doi'

export type FeedArticle = {
  guid: string | null
  link: string | null
  doi: string | null
  title: string
  summary: string | null
  author: string | null
  publishedAt: Date | null
}

/** The articles of one feed, and what its items lost: links refused, items that could not be kept. */
export type ParsedFeed = { articles: FeedArticle[]; linksRefused: number; itemsSkipped: number }

export type FeedItem = Parser.Item & {
  id?: string
  author?: string
  summary?: string
  'rdf:about'?: string
  'dc:identifier'?: unknown
  'prism:doi'?: unknown
  'content:encoded'?: string
}

/** A btree index entry holds at most 2,704 bytes; guids and links are looked up by unique indexes. */
const MAX_KEY_BYTES = 2000
const encoder = new TextEncoder()
const fitsIndex = (s: string) => s.length <= MAX_KEY_BYTES / 3 || encoder.encode(s).length <= MAX_KEY_BYTES

const text = (value: unknown): string | null => {
  const first = Array.isArray(value) ? value[0] : value
  const s =
    typeof first === 'string'
      ? first
      : typeof first === 'object' && first && '_' in first
        ? String((first as { _: unknown })._)
        : null
  const trimmed = s?.trim()
  return trimmed ? trimmed : null
}

const plain = (html: string | null | undefined, max: number): string | null => {
  if (typeof html !== 'string' || !html) return null
  const s = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return s ? s.slice(0, max) : null
}

function validDate(iso: string | undefined): Date | null {
  if (!iso) return null
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? null : date
}

/**
 * The link as given when it is an absolute http(s) URL with a host, else null. The scheme is
 * checked twice: literally (so no leading control character or `java\tscript:` trick gets past a
 * looser reader) and as the URL standard reads it (as a browser would follow it).
 */
export function webLink(raw: string): string | null {
  if (!/^https?:\/\/[^\s/?#]/i.test(raw) || !fitsIndex(raw)) return null
  try {
    const url = new URL(raw)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname ? raw : null
  } catch {
    return null
  }
}

export function readItems(items: FeedItem[]): ParsedFeed {
  const parsed: ParsedFeed = { articles: [], linksRefused: 0, itemsSkipped: 0 }
  for (const item of items) {
    // Storable first, so that a title of NUL characters counts as no title.
    const guid = text(item.guid) ?? text(item.id) ?? text(item['rdf:about'])
    const raw = storable({
      link: text(item.link),
      guid,
      title: plain(text(item.title), 1000),
      summary: plain(item.contentSnippet ?? item.summary ?? item.content, 4000),
      author: (text(item.creator) ?? text(item.author))?.slice(0, 500) ?? null,
      doi: findDoi(
        text(item['prism:doi']),
        text(item['dc:identifier']),
        text(item.link),
        guid,
        item.content,
        item['content:encoded'],
      ),
    })
    const link = raw.link ? webLink(raw.link) : null
    if (raw.link && !link) parsed.linksRefused++
    const key = raw.guid && fitsIndex(raw.guid) ? raw.guid : null
    const title = raw.title ?? link
    if (!title || (raw.link && !link && !key && !raw.doi)) {
      parsed.itemsSkipped++
      continue
    }
    parsed.articles.push({
      guid: key,
      link,
      doi: raw.doi,
      title,
      summary: raw.summary,
      author: raw.author,
      publishedAt: validDate(item.isoDate),
    })
  }
  return parsed
}
