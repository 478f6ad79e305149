/**
 * The public site (docs/contract-decisions.md: the API's absolute URLs must resolve): home, paper, story, topic,
 * entity and search pages, and RSS feeds of stories (all, and per topic). Server-rendered HTML, no
 * key, no client script. Every read goes through the shared queries in src/queries (and the search
 * backend /api/v1/search uses), so the site and the API answer from the same SQL.
 */
import { Elysia } from 'elysia'
import type { Db } from '../../db/client'
import { invalidParameter, notFound, quoted } from '../../http/errors'
import { listClaims } from '../../resources/claims/queries'
import { entitiesNamed, evidenceGroups } from '../../resources/evidence/queries'
import {
  entitiesAnsweringTo,
  entityPapers,
  listEntities,
  findEntity,
  listEntityPaperIds,
} from '../../resources/entities/queries'
import { getPaperDetail, listPapers, normalisePaperId } from '../../resources/papers/queries'
import { listStories, type StoryPosition } from '../../resources/stories/queries'
import { topicFeedUrl, topicSiteUrl } from '../../public-urls'
import type { SearchBackend } from '../../search/backend'
import { expandQuery } from '../../search/synonyms'
import { assertSearchable } from '../../search/syntax'
import { TOPIC_INFO } from '../../taxonomy'
import type { CorpusSnapshot } from '../v1/stats/snapshot'
import type { ResponseCache } from '../v1/response-cache'
import { orRedirect } from '../../http/redirect'
import { redirectOrNotFound } from '../v1/entities/resolve'
import { evidenceParams } from '../v1/evidence/params'
import { parseParams } from '../../http/params'
import { feedResponse, renderFeed, type Feed } from './feeds'
import { entitySitePath } from './links'
import { evidencePage } from './evidence-page'
import { entityPage, feedLink, homePage, paperPage, searchPage, storyPage, topicPage } from './pages'
import { html, layout } from './render'
import { searchQueryOf } from './search-filters'
import { chartFigure } from './charts/figure'
import { crawlModule } from './crawl'
import { indexPage, mostStudiedHtml } from './index-page'
import { entityCharts, evidenceChart, homeChart, topicCharts } from './charts/site-charts'
import { attentionChartOf } from './charts/intelligence-charts'
import { feedLinks, RSS_TYPE } from './item-feeds'
import { anythingFeeds, entityChannel, evidenceChannel, searchChannel } from './feed-routes'

const FEED_SIZE = 50
const PAGE_SIZE = 20
/** Most-studied entities on the home page, and on the index page. */
const HOME_ENTITIES = 8
const INDEX_ENTITIES = 100
/** Entities the search page suggests at most. */
const SUGGESTIONS = 3
const hidden = { detail: { hide: true } }

/** `cache`: the Data API's response cache (emptied on every data change, answers at most 30 s old), for whole pages. */
export type SiteContext = {
  db: Db
  base: string
  snapshot: CorpusSnapshot
  search: SearchBackend
  cache: ResponseCache | null
}

function topicOf(slug: string | null) {
  const topic = TOPIC_INFO.find((t) => t.slug === slug)
  if (!topic) throw notFound(`no topic ${quoted(slug ?? '')}`)
  return topic
}

/** `rawId` as the router decoded it: null when it was not valid percent-encoded UTF-8. */
function paperIdOf(rawId: string | null): string {
  const id = rawId === null ? null : normalisePaperId(rawId)
  if (!id)
    throw notFound(
      rawId === null ? 'no such paper: the id is not valid percent-encoded UTF-8' : `no paper with id ${quoted(rawId)}`,
    )
  return id
}

/** A page position `after=<time or date>~<paper id>`, as the "older" links write it. */
function positionOf(url: string, shape: RegExp, name = 'after'): { at: string; paperId: string } | null {
  const raw = new URL(url).searchParams.get(name)
  if (raw === null) return null
  const [at, paperId] = raw.split('~')
  if (!at || !paperId || !shape.test(at) || !normalisePaperId(paperId))
    throw invalidParameter(`${name} is not a page position: ${quoted(raw)}`)
  return { at, paperId: normalisePaperId(paperId)! }
}
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const DATE = /^\d{4}-\d{2}-\d{2}$/
const PAPERS_PER_TOPIC_PAGE = 10

type Rendered = { title: string; body: string; head?: string }
const encoder = new TextEncoder()
const decoder = new TextDecoder()

const PAGE_CACHE_CONTROL = 'public, max-age=60'

export const siteModule = ({ db, base, snapshot, search, cache }: SiteContext) => {
  /** The page for this URL: from the cache when it holds it, else rendered (and kept). Failures are not kept. */
  async function send(request: Request, render: () => Promise<Rendered>): Promise<Response> {
    if (!cache) return html(layout(await render()), PAGE_CACHE_CONTROL)
    const url = request.url
    const key = `site ${url.slice(url.indexOf('/', url.indexOf('//') + 2))}`
    const body = await cache.bytes(key, async () => encoder.encode(layout(await render())))
    return html(body, PAGE_CACHE_CONTROL)
  }

  /** A feed, kept in the same cache as pages: its newest story's time on the first line, then the XML. */
  async function sendFeed(request: Request, render: () => Promise<Feed>, contentType = RSS_TYPE): Promise<Response> {
    if (!cache) return feedResponse(request, await render(), contentType)
    const url = request.url
    const key = `feed ${url.slice(url.indexOf('/', url.indexOf('//') + 2))}`
    const text = decoder.decode(
      await cache.bytes(key, async () => {
        const feed = await render()
        return encoder.encode(`${feed.lastModified.getTime()}\n${feed.xml}`)
      }),
    )
    const newline = text.indexOf('\n')
    return feedResponse(
      request,
      { lastModified: new Date(Number(text.slice(0, newline))), xml: text.slice(newline + 1) },
      contentType,
    )
  }

  return new Elysia({ name: 'site' })
    .get(
      '/',
      ({ request }) =>
        send(request, async () => {
          const [stories, corpus, chart, studied] = await Promise.all([
            listStories(db, {}, 10, null),
            snapshot.get(),
            homeChart(db, new Date()).then(chartFigure),
            listEntities(db, {}, HOME_ENTITIES, null),
          ])
          const topics = TOPIC_INFO.map((t) => ({ ...t, ...corpus.topics[t.slug] }))
          return homePage(base, stories, topics, chart + mostStudiedHtml(studied.slice(0, HOME_ENTITIES)))
        }),
      hidden,
    )
    .get(
      '/topics',
      ({ request }) =>
        send(request, async () => {
          const [corpus, entities] = await Promise.all([snapshot.get(), listEntities(db, {}, INDEX_ENTITIES, null)])
          return indexPage(
            base,
            TOPIC_INFO.map((t) => ({ ...t, ...corpus.topics[t.slug] })),
            entities.slice(0, INDEX_ENTITIES),
          )
        }),
      hidden,
    )
    .get(
      '/papers/:id',
      ({ params, request }) =>
        send(request, async () => {
          const detail = await getPaperDetail(db, paperIdOf(params.id))
          if (!detail) throw notFound(`no paper with id ${quoted(params.id ?? '')}`)
          return paperPage(base, detail)
        }),
      hidden,
    )
    .get(
      '/stories/:id',
      ({ params, request }) =>
        send(request, async () => {
          const detail = await getPaperDetail(db, paperIdOf(params.id))
          if (!detail) throw notFound(`no paper with id ${quoted(params.id ?? '')}`)
          if (!detail.story) throw notFound(`no story about paper ${quoted(detail.paper.id)}`)
          return storyPage(base, detail.paper, detail.story)
        }),
      hidden,
    )
    .get(
      '/topics/:slug',
      ({ params, request }) =>
        send(request, async () => {
          const topic = topicOf(params.slug)
          // Stories and recent papers page on their own: `after` and `papers_after`, each link keeping the other.
          const position = positionOf(request.url, TIMESTAMP)
          const papersPosition = positionOf(request.url, DATE, 'papers_after')
          const after: StoryPosition | null = position && { publishedAt: position.at, paperId: position.paperId }
          const [stories, papers, charts] = await Promise.all([
            listStories(db, { topic: [topic.slug] }, PAGE_SIZE + 1, after),
            listPapers(
              db,
              { minRelevance: 0, topic: [topic.slug] },
              PAPERS_PER_TOPIC_PAGE + 1,
              papersPosition && { indexedDate: papersPosition.at, id: papersPosition.paperId },
            ),
            topicCharts(db, topic, new Date())
              .then(async (all) => [
                ...all,
                ...[await attentionChartOf(db, `topic:${topic.slug}`)].filter((c) => c !== null),
              ])
              .then((all) => Promise.all(all.map(chartFigure))),
          ])
          const current = new URL(request.url).searchParams
          const link = (name: string, value: string) => {
            const query = new URLSearchParams()
            for (const kept of ['after', 'papers_after'])
              if (kept !== name && current.has(kept)) query.set(kept, current.get(kept)!)
            query.set(name, value)
            return `${topicSiteUrl(base, topic.slug)}?${query}`
          }
          const last = stories.length > PAGE_SIZE ? stories[PAGE_SIZE - 1] : null
          const next = last && link('after', `${last.publishedAtText}~${last.paper.id}`)
          const lastPaper = papers.length > PAPERS_PER_TOPIC_PAGE ? papers[PAPERS_PER_TOPIC_PAGE - 1] : null
          const nextPapers = lastPaper && link('papers_after', `${lastPaper.indexedDate}~${lastPaper.id}`)
          return {
            ...topicPage(
              base,
              topic,
              stories.slice(0, PAGE_SIZE),
              papers.slice(0, PAPERS_PER_TOPIC_PAGE),
              next,
              nextPapers,
              charts.join(''),
            ),
            head: feedLink(`Geroscope: ${topic.name}`, topicFeedUrl(base, topic.slug)),
          }
        }),
      hidden,
    )
    .get(
      '/entities/:type/:key',
      ({ params, request }) =>
        orRedirect(() =>
          send(request, async () => {
            const raw = params as { type: string | null; key: string | null }
            if (raw.type === null || raw.key === null || `${raw.type}${raw.key}`.includes('\0'))
              throw notFound('no such entity: the path is not valid percent-encoded UTF-8')
            const entity = await findEntity(db, raw.type, raw.key)
            // Another of its names (/entities/gene/p16): a 308 to the entity's own page.
            if (!entity)
              return redirectOrNotFound(
                db,
                raw.type,
                raw.key,
                new URL(request.url).search,
                (key) => `${base}${entitySitePath(raw.type!, key)}`,
              )
            const position = positionOf(request.url, DATE)
            const [ids, asSubject, asObject, charts] = await Promise.all([
              listEntityPaperIds(
                db,
                entity.id,
                undefined,
                PAGE_SIZE + 1,
                position && { indexedDate: position.at, paperId: position.paperId },
              ),
              listClaims(db, { subjectEntityId: entity.id }, 10, null),
              listClaims(db, { objectEntityId: entity.id }, 10, null),
              entityCharts(db, entity)
                .then(async (all) =>
                  entity.type === 'hallmark'
                    ? [...all, ...[await attentionChartOf(db, `hallmark:${entity.key}`)].filter((c) => c !== null)]
                    : all,
                )
                .then((all) => Promise.all(all.map(chartFigure))),
            ])
            const page = ids.slice(0, PAGE_SIZE)
            const papers = await entityPapers(
              db,
              entity.id,
              page.map((r) => r.paperId),
            )
            const last = ids.length > PAGE_SIZE ? page[PAGE_SIZE - 1] : null
            const next =
              last &&
              `${base}${entitySitePath(entity.type, entity.key)}?after` +
                `=${encodeURIComponent(`${last.indexedDate}~${last.paperId}`)}`
            const claims = [...asSubject, ...asObject.filter((o) => !asSubject.some((s) => s.claim.id === o.claim.id))]
            const feeds = feedLinks(entityChannel(base, entity))
            return {
              ...entityPage(
                base,
                entity,
                papers.map((p) => p.paper),
                claims,
                next,
                charts.join(''),
                feeds.body,
              ),
              head: feeds.head,
            }
          }),
        ),
      hidden,
    )
    .get(
      '/evidence',
      ({ request }) =>
        send(request, async () => {
          // The parameters of /api/v1/evidence, read and refused as it reads and refuses them.
          const p = parseParams(request.url, evidenceParams)
          if (p.subject === undefined || p.object === undefined)
            throw invalidParameter('subject and object are required, e.g. /evidence?subject=rapamycin&object=lifespan')
          const [entity] = await entitiesNamed(db, p.subject)
          if (!entity) throw notFound(`no entity is named ${quoted(p.subject)}`)
          const groups = await evidenceGroups(db, {
            subject: p.subject,
            object: p.object,
            organism: p.organism,
            studyTypes: p.study_type,
          })
          const chart = evidenceChart(groups, entity.name, p.object)
          const feeds = feedLinks(
            evidenceChannel(base, { subject: p.subject, object: p.object, organism: p.organism }, entity.name),
          )
          return {
            ...evidencePage(
              base,
              { subject: p.subject, object: p.object, entity },
              groups,
              chart ? await chartFigure(chart) : '',
              feeds.body,
            ),
            head: feeds.head,
          }
        }),
      hidden,
    )
    .get(
      '/search',
      ({ request }) =>
        send(request, async () => {
          const s = searchQueryOf(request.url)
          if (s.q === '') return searchPage(base, s, [], false)
          const [{ hits }, suggested] = await Promise.all([
            search.search({ q: s.q, filters: s.filters, limit: PAGE_SIZE + 1, after: null }),
            // The entities the query names, as a whole or by the names search expanded (p16: CDKN2A).
            entitiesAnsweringTo(db, [s.q, ...expandQuery(s.q).map((x) => x.text)], SUGGESTIONS),
          ])
          if (hits.length === 0) await assertSearchable(db, s.q)
          const feeds = feedLinks(searchChannel(base, s))
          const page = searchPage(base, s, hits.slice(0, PAGE_SIZE), hits.length > PAGE_SIZE, suggested)
          return { ...page, body: page.body + feeds.body, head: feeds.head }
        }),
      hidden,
    )
    .get(
      '/feed.xml',
      ({ request }) =>
        sendFeed(request, async () => {
          const rows = await listStories(db, {}, FEED_SIZE, null)
          return renderFeed(
            base,
            {
              title: 'Geroscope: all stories',
              link: `${base}/`,
              self: `${base}/feed.xml`,
              description: 'Stories about new research on the biology of aging.',
            },
            rows,
          )
        }),
      hidden,
    )
    .get(
      '/topics/:slug/feed.xml',
      ({ params, request }) => {
        const topic = topicOf(params.slug) // an unknown topic is a 404 before the cache is asked
        return sendFeed(request, async () => {
          const rows = await listStories(db, { topic: [topic.slug] }, FEED_SIZE, null)
          return renderFeed(
            base,
            {
              title: `Geroscope: ${topic.name}`,
              link: topicSiteUrl(base, topic.slug),
              self: topicFeedUrl(base, topic.slug),
              description: topic.description,
            },
            rows,
          )
        })
      },
      hidden,
    )
    .use(anythingFeeds({ db, base }, sendFeed))
    .use(crawlModule({ db, base }))
}
