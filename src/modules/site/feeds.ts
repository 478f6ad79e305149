/**
 * RSS 2.0 feeds of stories (all, and one per topic) with conditional GET: a strong ETag over the
 * body and Last-Modified from the newest item, answered with 304 when the reader already has them.
 *
 * Readers show an item's title, description and categories as HTML, so every text there is
 * escaped twice: once for the reader's HTML (`htmlText`), and that once more for the XML. A paper's
 * title or journal from upstream holding `<img onerror=...>` is then shown as those characters.
 */
import { createHash } from 'node:crypto'
import { dateOf } from '../../queries/prepared'
import type { StoryListRow } from '../../resources/stories/queries'
import { paperSiteUrl, storyUrl } from '../../public-urls'
import { TOPIC_INFO } from '../../taxonomy'
import { escapeXml } from './render'
import { doiUrl } from './links'

export const FEED_CACHE_CONTROL = 'public, max-age=300'

type Channel = { title: string; link: string; self: string; description: string }

/** Plain text as an element's content that readers render as HTML: escaped for HTML, then for XML. */
export const htmlText = (text: string) => escapeXml(escapeXml(text))

function item(base: string, { story, paper }: StoryListRow): string {
  const topic = TOPIC_INFO.find((t) => t.slug === paper.topic)
  const categories = [
    topic ? `<category domain="${escapeXml(base)}/topics">${htmlText(topic.name)}</category>` : '',
    paper.studyType ? `<category domain="study_type">${htmlText(paper.studyType)}</category>` : '',
  ].join('')
  const doi = paper.doi ? `<dc:identifier>doi:${escapeXml(paper.doi)}</dc:identifier>` : ''
  const description = `${story.dek} (Paper: ${paper.title}, ${paper.journal}${paper.doi ? `, doi:${paper.doi}` : ''}.)`
  return (
    `<item><title>${htmlText(story.headline)}</title><link>${escapeXml(storyUrl(base, paper.id))}</link>` +
    `<guid isPermaLink="false">geroscope:story:${escapeXml(paper.id)}</guid>` +
    `<pubDate>${dateOf(story.publishedAt).toUTCString()}</pubDate>` +
    `<description>${htmlText(description)}</description>${categories}${doi}` +
    // RSS 2.0's <source> names the RSS channel an item was taken from, and <comments> a page of comments on it:
    // neither is the paper. What the story is about goes in Dublin Core: dc:source the paper it is drawn from
    // (its DOI, else its record), dc:relation the paper's page here.
    `<dc:source>${escapeXml(paper.doi ? doiUrl(paper.doi) : paper.url)}</dc:source>` +
    `<dc:relation>${escapeXml(paperSiteUrl(base, paper.id))}</dc:relation>` +
    '<dc:creator>Geroscope</dc:creator></item>'
  )
}

/** The feed's response, or a 304 when the request's validators say the reader has it. */
/** A rendered feed: its XML and the time of its newest story (Last-Modified). */
export type Feed = { xml: string; lastModified: Date }

export function renderFeed(base: string, channel: Channel, rows: StoryListRow[]): Feed {
  const newest =
    rows.reduce<Date | null>((m, r) => {
      const at = dateOf(r.story.publishedAt)
      return !m || at > m ? at : m
    }, null) ?? new Date(0)
  const lastModified = new Date(Math.floor(newest.getTime() / 1000) * 1000)
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
<title>${htmlText(channel.title)}</title><link>${escapeXml(channel.link)}</link>
<description>${htmlText(channel.description)}</description>
<atom:link href="${escapeXml(channel.self)}" rel="self" type="application/rss+xml"/>
<language>en</language><lastBuildDate>${lastModified.toUTCString()}</lastBuildDate><generator>Geroscope</generator>` +
    `<ttl>5</ttl>
<copyright>Stories and judgements by Geroscope; papers belong to their authors.</copyright>
${rows.map((r) => item(base, r)).join('\n')}
</channel></rss>`
  return { xml, lastModified }
}

/** The feed as an answer: ETag and Last-Modified, 304 to a client that holds it already. */
export function feedResponse(
  request: Request,
  { xml, lastModified }: Feed,
  contentType = 'application/rss+xml; charset=utf-8',
): Response {
  const etag = `"${createHash('sha256').update(xml).digest('base64url').slice(0, 27)}"`
  const headers = {
    'content-type': contentType,
    'cache-control': FEED_CACHE_CONTROL,
    etag,
    'last-modified': lastModified.toUTCString(),
  }
  const ifNoneMatch = request.headers.get('if-none-match')
  const ifModifiedSince = Date.parse(request.headers.get('if-modified-since') ?? '')
  const fresh =
    ifNoneMatch !== null
      ? ifNoneMatch
          .split(',')
          .map((v) => v.trim().replace(/^W\//, ''))
          .some((v) => v === etag || v === '*')
      : !Number.isNaN(ifModifiedSince) && ifModifiedSince >= lastModified.getTime()
  if (fresh) return new Response(null, { status: 304, headers })
  return new Response(request.method === 'HEAD' ? null : xml, { headers })
}
