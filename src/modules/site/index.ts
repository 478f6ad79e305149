/**
 * The public site pages behind the API's absolute URLs (decisions.md: they must resolve): a paper,
 * a story, a topic and the topic's RSS feed of stories. Plain server-rendered HTML, no key needed.
 */
import { desc, eq } from 'drizzle-orm'
import { Elysia } from 'elysia'
import type { Db } from '../../db/client'
import { papers, stories } from '../../db/schema'
import { notFound, quoted } from '../../http/errors'
import { TOPIC_INFO, licenseAllowsReuse } from '../../taxonomy'
import { normalisePaperId, paperColumns } from '../../queries/papers'
import { paperSiteUrl, storyUrl, topicFeedUrl, topicSiteUrl } from '../../public-urls'
import { escapeXml, page, paragraphs, rss } from './render'

const FEED_SIZE = 50

/** `rawId` as the router decoded it: null when it was not valid percent-encoded UTF-8. */
async function findPaper(db: Db, rawId: string | null) {
  const id = rawId === null ? null : normalisePaperId(rawId)
  const [row] = id ? await db.select(paperColumns).from(papers).where(eq(papers.id, id)) : []
  if (!row) throw notFound(rawId === null ? 'no such paper: the id is not valid percent-encoded UTF-8' : `no paper with id ${quoted(rawId)}`)
  const [story] = await db.select().from(stories).where(eq(stories.paperId, row.id))
  return { paper: row, story: story ?? null }
}

function topicStories(db: Db, slug: string, limit: number) {
  return db.select({ story: stories, title: papers.title }).from(stories)
    .innerJoin(papers, eq(papers.id, stories.paperId))
    .where(eq(papers.topic, slug))
    .orderBy(desc(stories.publishedAt), stories.paperId)
    .limit(limit)
}

function topicOf(slug: string | null) {
  const topic = TOPIC_INFO.find((t) => t.slug === slug)
  if (!topic) throw notFound(`no topic ${quoted(slug ?? '')}`)
  return topic
}

export const siteModule = (db: Db, base: string) =>
  new Elysia({ name: 'site' })
    .get('/', () => page('Aging research, read for you', `<h1>Geroscope</h1>
<p>Research on the biology of aging, judged and summarised. Developers: see the <a href="/api/v1/docs">Data API</a>.</p>
<ul>${TOPIC_INFO.map((t) => `<li><a href="${topicSiteUrl(base, t.slug)}">${escapeXml(t.name)}</a></li>`).join('')}</ul>`), { detail: { hide: true } })
    .get('/papers/:id', async ({ params }) => {
      const { paper, story } = await findPaper(db, params.id)
      const abstract = licenseAllowsReuse(paper.abstractLicense) && paper.abstract
        ? `<h2>Abstract</h2>${paragraphs(paper.abstract)}<p class="meta">Abstract licensed ${escapeXml(paper.abstractLicense!)}; by ${escapeXml(paper.authors)}.</p>`
        : '<p class="meta">The abstract is not shown: its licence does not allow reuse.</p>'
      return page(paper.title, `<h1>${escapeXml(paper.title)}</h1>
<p class="meta">${escapeXml(paper.authors)} · ${escapeXml(paper.journal)} · indexed ${paper.indexedDate}${paper.preprint ? ' · preprint, not peer reviewed' : ''}</p>
<p><a href="${escapeXml(paper.url)}">Read the paper</a>${story ? ` · <a href="${storyUrl(base, paper.id)}">Our story</a>` : ''}</p>${abstract}`)
    }, { detail: { hide: true } })
    .get('/stories/:id', async ({ params }) => {
      const { paper, story } = await findPaper(db, params.id)
      if (!story) throw notFound(`no story about paper ${quoted(paper.id)}`)
      return page(story.headline, `<h1>${escapeXml(story.headline)}</h1><p><strong>${escapeXml(story.dek)}</strong></p>
${paragraphs(story.body)}<h2>Why it matters</h2>${paragraphs(story.whyItMatters)}<h2>Caveats</h2>${paragraphs(story.caveats)}
<p class="meta">About <a href="${paperSiteUrl(base, paper.id)}">${escapeXml(paper.title)}</a>. Written by ${escapeXml(story.model)}, published ${story.publishedAt.toISOString()}.</p>`)
    }, { detail: { hide: true } })
    .get('/topics/:slug', async ({ params }) => {
      const topic = topicOf(params.slug)
      const rows = await topicStories(db, topic.slug, FEED_SIZE)
      return page(topic.name, `<h1>${escapeXml(topic.name)}</h1><p>${escapeXml(topic.description)}</p>
<p><a href="${topicFeedUrl(base, topic.slug)}">RSS feed</a></p>
<ul>${rows.map((r) => `<li><a href="${storyUrl(base, r.story.paperId)}">${escapeXml(r.story.headline)}</a></li>`).join('')}</ul>`)
    }, { detail: { hide: true } })
    .get('/topics/:slug/feed.xml', async ({ params }) => {
      const topic = topicOf(params.slug)
      const rows = await topicStories(db, topic.slug, FEED_SIZE)
      return rss(`Geroscope: ${topic.name}`, topicSiteUrl(base, topic.slug), topic.description, rows.map((r) => ({
        title: r.story.headline, link: storyUrl(base, r.story.paperId), description: r.story.dek, published: r.story.publishedAt, guid: `geroscope:story:${r.story.paperId}`,
      })))
    }, { detail: { hide: true } })
