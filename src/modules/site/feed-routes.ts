/**
 * Feeds for anything a reader may follow: a search (/search/feed.xml?q=…), an entity's new papers
 * (/entities/{type}/{key}/feed.xml) and the claims answering a question (/evidence/feed.xml?subject=…
 * &object=…), each as RSS and as JSON Feed (feed.json), with the limits and conditional GET of the
 * story feeds (./feeds.ts). Their parameters are read and refused as their pages read them.
 */
import { Elysia } from 'elysia'
import type { Db } from '../../db/client'
import { invalidParameter, notFound, quoted } from '../../http/errors'
import { parseParams, type ParamSpec } from '../../http/params'
import { orRedirect } from '../../http/redirect'
import { listClaims } from '../../resources/claims/queries'
import { entitiesNamed } from '../../resources/evidence/queries'
import { entityPapers, findEntity, listEntityPaperIds } from '../../resources/entities/queries'
import { listPapers } from '../../resources/papers/queries'
import { assertSearchable } from '../../search/syntax'
import { queryFilter } from '../../search/synonyms'
import { redirectOrNotFound } from '../v1/entities/resolve'
import { evidenceParams } from '../v1/evidence/params'
import type { Feed } from './feeds'
import { searchQueryOf, withFilter, type SearchQuery } from './search-filters'
import { entitySitePath } from './links'
import {
  claimItem,
  jsonFeed,
  JSON_FEED_TYPE,
  paperItem,
  rssFeed,
  RSS_TYPE,
  type FeedChannel,
  type FeedItem,
} from './item-feeds'

/** Items in a feed: as many as the story feeds carry. */
export const FEED_SIZE = 50
const hidden = { detail: { hide: true } }

type SendFeed = (request: Request, render: () => Promise<Feed>, contentType?: string) => Promise<Response>

export function searchChannel(base: string, s: SearchQuery): FeedChannel {
  const query = withFilter(s, {})
  const filtered = Object.keys(s.values).length ? ' (filtered)' : ''
  return {
    title: `Geroscope: papers matching “${s.q}”${filtered}`,
    page: `${base}/search?${query}`,
    rss: `${base}/search/feed.xml?${query}`,
    json: `${base}/search/feed.json?${query}`,
    description: `New papers whose title or abstract match “${s.q}”${filtered}, newest first.`,
  }
}

export function entityChannel(base: string, entity: { type: string; key: string; name: string }): FeedChannel {
  const page = `${base}${entitySitePath(entity.type, entity.key)}`
  return {
    title: `Geroscope: ${entity.name}`,
    page,
    rss: `${page}/feed.xml`,
    json: `${page}/feed.json`,
    description: `New papers involving the ${entity.type} ${entity.name}, newest first.`,
  }
}

type Question = { subject: string; object: string; organism?: string }

export function evidenceChannel(base: string, q: Question, subjectName: string): FeedChannel {
  const query = new URLSearchParams({ subject: q.subject, object: q.object })
  if (q.organism) query.set('organism', q.organism)
  const about = `${subjectName} and ${q.object}${q.organism ? ` in ${q.organism}` : ''}`
  return {
    title: `Geroscope: ${about}`,
    page: `${base}/evidence?${query}`,
    rss: `${base}/evidence/feed.xml?${query}`,
    json: `${base}/evidence/feed.json?${query}`,
    description: `New claims about ${about} extracted from papers, newest first.`,
  }
}

const { subject, object, organism } = evidenceParams
const evidenceFeedParams = { subject, object, organism } satisfies ParamSpec

/** Both formats of one feed: `path` with .xml and .json, `items` read once per format and request. */
type Read = () => Promise<{ channel: FeedChannel; items: FeedItem[] }>
type Prepare = (request: Request, params: Record<string, string | null>) => Promise<Read>

function both(app: Elysia, sendFeed: SendFeed, path: string, prepare: Prepare) {
  return app
    .get(
      `${path}.xml`,
      ({ request, params }) =>
        orRedirect(async () => {
          const read = await prepare(request, params as Record<string, string | null>)
          return sendFeed(
            request,
            async () => {
              const { channel, items } = await read()
              return rssFeed(channel, items)
            },
            RSS_TYPE,
          )
        }),
      hidden,
    )
    .get(
      `${path}.json`,
      ({ request, params }) =>
        orRedirect(async () => {
          const read = await prepare(request, params as Record<string, string | null>)
          return sendFeed(
            request,
            async () => {
              const { channel, items } = await read()
              return jsonFeed(channel, items)
            },
            JSON_FEED_TYPE,
          )
        }),
      hidden,
    )
}

export function anythingFeeds({ db, base }: { db: Db; base: string }, sendFeed: SendFeed) {
  let app = new Elysia({ name: 'site-feeds' })
  app = both(app, sendFeed, '/search/feed', async (request) => {
    const s = searchQueryOf(request.url)
    if (s.q === '') {
      throw invalidParameter('q is required: the words the feed follows, e.g. /search/feed.xml?q=senolytic')
    }
    return async () => {
      const rows = (await listPapers(db, { ...s.filters, ...queryFilter(s.q) }, FEED_SIZE, null)).slice(0, FEED_SIZE)
      if (rows.length === 0) await assertSearchable(db, s.q)
      return { channel: searchChannel(base, s), items: rows.map((p) => paperItem(base, p)) }
    }
  })
  app = both(app, sendFeed, '/entities/:type/:key/feed', async (request, params) => {
    if (params.type === null || params.key === null || `${params.type}${params.key}`.includes('\0')) {
      throw notFound('no such entity: the path is not valid percent-encoded UTF-8')
    }
    const entity = await findEntity(db, params.type!, params.key!)
    if (!entity) {
      // Another of its names (/entities/gene/p16/feed.xml): a 308 to the entity's own feed, as its page does.
      const url = new URL(request.url)
      const format = url.pathname.endsWith('.json') ? 'json' : 'xml'
      return redirectOrNotFound(
        db,
        params.type!,
        params.key!,
        url.search,
        (key) => `${base}${entitySitePath(params.type!, key)}/feed.${format}`,
      )
    }
    return async () => {
      const ids = (await listEntityPaperIds(db, entity.id, undefined, FEED_SIZE, null)).slice(0, FEED_SIZE)
      const papers = await entityPapers(
        db,
        entity.id,
        ids.map((r) => r.paperId),
      )
      const items = papers.map((p) => paperItem(base, { ...p.paper, storyHeadline: null, storyDek: null }))
      return { channel: entityChannel(base, entity), items }
    }
  })
  app = both(app, sendFeed, '/evidence/feed', async (request) => {
    const p = parseParams(request.url, evidenceFeedParams)
    if (p.subject === undefined || p.object === undefined) {
      throw invalidParameter(
        'subject and object are required, e.g. /evidence/feed.xml?subject=rapamycin&object=lifespan',
      )
    }
    const [entity] = await entitiesNamed(db, p.subject)
    if (!entity) throw notFound(`no entity is named ${quoted(p.subject)}`)
    const q = { subject: p.subject, object: p.object, organism: p.organism }
    return async () => {
      const rows = (await listClaims(db, q, FEED_SIZE, null)).slice(0, FEED_SIZE)
      return { channel: evidenceChannel(base, q, entity.name), items: rows.map((c) => claimItem(base, c)) }
    }
  })
  return app
}
