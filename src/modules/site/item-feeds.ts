/**
 * Feeds of papers and claims (a search, an entity, a question) as RSS 2.0 and as JSON Feed 1.1, from
 * one list of items. The RSS is written and escaped as the story feeds are (./feeds.ts): text a reader shows as
 * HTML (titles, descriptions, categories) escaped for that HTML and again for the XML, so a paper title holding
 * markup reaches the reader as text; the JSON Feed is JSON.stringify of the same items (its title and content_text
 * are plain text). Both are answered with conditional GET by
 * feedResponse, with Last-Modified from the newest item.
 */
import { licenseAllowsReuse, STUDY_TYPE_LABELS, TOPIC_INFO, type StudyType } from '../../taxonomy'
import type { ClaimListRow } from '../../resources/claims/queries'
import type { PaperListRow } from '../../resources/papers/queries'
import { dateOf } from '../../queries/prepared'
import { paperSiteUrl } from '../../public-urls'
import { htmlText, type Feed } from './feeds'
import { doiUrl } from './links'
import { escapeXml as e } from './render'

export const RSS_TYPE = 'application/rss+xml; charset=utf-8'
export const JSON_FEED_TYPE = 'application/feed+json; charset=utf-8'

export type FeedItem = {
  guid: string
  title: string
  url: string
  date: Date
  summary: string
  categories: { domain: string; name: string }[]
  doi: string | null
}

/** A feed's channel: its page, and its own address in each format. */
export type FeedChannel = { title: string; page: string; rss: string; json: string; description: string }

const newestOf = (items: FeedItem[]) => {
  const newest = items.reduce<number>((m, i) => Math.max(m, i.date.getTime()), 0)
  return new Date(Math.floor(newest / 1000) * 1000)
}

const ABSTRACT_CHARS = 400
const shortened = (text: string) =>
  text.length <= ABSTRACT_CHARS ? text : `${text.slice(0, text.lastIndexOf(' ', ABSTRACT_CHARS))} …`

/** A paper as a feed item: dated by the day it was indexed, its open abstract shortened. */
export function paperItem(base: string, p: PaperListRow): FeedItem {
  const topic = TOPIC_INFO.find((t) => t.slug === p.topic)
  const studyType = p.studyType ? (STUDY_TYPE_LABELS[p.studyType as StudyType] ?? p.studyType) : null
  const facts = [
    p.journal,
    p.preprint ? 'preprint' : null,
    p.publishedDate ? `published ${p.publishedDate}` : null,
    studyType?.toLowerCase(),
  ]
  const abstract = p.abstract && licenseAllowsReuse(p.abstractLicense) ? ` ${shortened(p.abstract)}` : ''
  return {
    guid: `geroscope:paper:${p.id}`,
    title: p.title,
    url: paperSiteUrl(base, p.id),
    date: new Date(`${p.indexedDate}T00:00:00Z`),
    summary:
      `${facts.filter(Boolean).join(', ')}.` + `${p.storyHeadline ? ` Our story: ${p.storyHeadline}.` : ''}${abstract}`,
    categories: [
      ...(topic ? [{ domain: `${base}/topics`, name: topic.name }] : []),
      ...(p.studyType ? [{ domain: 'study_type', name: p.studyType }] : []),
    ],
    doi: p.doi,
  }
}

/** A claim as a feed item: "rapamycin extends lifespan (in mouse; increase)", linked to its paper, dated when made. */
export function claimItem(base: string, c: ClaimListRow): FeedItem {
  const where = [c.claim.organism ? `in ${c.claim.organism}` : null, c.claim.direction?.replaceAll('_', ' ')]
    .filter(Boolean)
    .join('; ')
  const relation = c.claim.relation.replaceAll('_', ' ')
  const title = `${c.claim.subjectText} ${relation} ${c.claim.objectText}${where ? ` (${where})` : ''}`
  const open = c.claim.evidence && licenseAllowsReuse(c.paper.abstractLicense)
  const evidence = open ? ` Evidence: “${c.claim.evidence}”` : ''
  return {
    guid: `geroscope:claim:${c.claim.id}`,
    title,
    url: paperSiteUrl(base, c.paper.id),
    date: dateOf(c.claim.createdAt),
    summary:
      `From “${c.paper.title}” (${c.paper.journal}${c.paper.publishedDate ? `, ${c.paper.publishedDate}` : ''}).` +
      `${evidence} Extracted by Geroscope; it can be wrong: read the paper.`,
    categories: c.claim.organism ? [{ domain: 'organism', name: c.claim.organism }] : [],
    doi: c.paper.doi,
  }
}

function rssItem(i: FeedItem): string {
  return (
    `<item><title>${htmlText(i.title)}</title><link>${e(i.url)}</link><guid isPermaLink="false">${e(i.guid)}</guid>` +
    `<pubDate>${i.date.toUTCString()}</pubDate><description>${htmlText(i.summary)}</description>` +
    i.categories.map((c) => `<category domain="${e(c.domain)}">${htmlText(c.name)}</category>`).join('') +
    (i.doi ? `<dc:identifier>doi:${e(i.doi)}</dc:identifier>` : '') +
    '<dc:creator>Geroscope</dc:creator></item>'
  )
}

/** RSS 2.0 of the items, newest first as given. */
export function rssFeed(channel: FeedChannel, items: FeedItem[]): Feed {
  const lastModified = newestOf(items)
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
<title>${htmlText(channel.title)}</title><link>${e(channel.page)}</link>` +
    `<description>${htmlText(channel.description)}</description>
<atom:link href="${e(channel.rss)}" rel="self" type="application/rss+xml"/>
<language>en</language><lastBuildDate>${lastModified.toUTCString()}</lastBuildDate>
<generator>Geroscope</generator><ttl>5</ttl>
<copyright>Judgements and claims by Geroscope; papers belong to their authors.</copyright>
${items.map(rssItem).join('\n')}
</channel></rss>`
  return { xml, lastModified }
}

/** JSON Feed 1.1 of the same items (the Feed's `xml` holds the JSON text). */
export function jsonFeed(channel: FeedChannel, items: FeedItem[]): Feed {
  const feed = {
    version: 'https://jsonfeed.org/version/1.1',
    title: channel.title,
    home_page_url: channel.page,
    feed_url: channel.json,
    description: channel.description,
    language: 'en',
    authors: [{ name: 'Geroscope' }],
    items: items.map((i) => ({
      id: i.guid,
      url: i.url,
      ...(i.doi ? { external_url: doiUrl(i.doi) } : {}),
      title: i.title,
      content_text: i.summary,
      date_published: i.date.toISOString(),
      tags: i.categories.map((c) => c.name),
    })),
  }
  return { xml: JSON.stringify(feed), lastModified: newestOf(items) }
}

/** The <head> links to a feed in both formats, and the visible links for the page. */
export function feedLinks(channel: FeedChannel): { head: string; body: string } {
  return {
    head:
      `<link rel="alternate" type="application/rss+xml" title="${e(channel.title)}" href="${e(channel.rss)}">` +
      `<link rel="alternate" type="application/feed+json" title="${e(channel.title)}" href="${e(channel.json)}">`,
    body:
      `<p class="feeds">Follow: <a href="${e(channel.rss)}">RSS feed</a> · ` +
      `<a href="${e(channel.json)}">JSON Feed</a></p>`,
  }
}
