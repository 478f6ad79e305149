/**
 * What crawlers and browsers ask a site for: /robots.txt (the public pages, not the APIs, console or
 * search results, and where the sitemap is), /favicon.svg (and /favicon.ico, pointing to it), and a
 * sitemap index (/sitemap.xml) of files of at most 50,000 URLs (the protocol's limit): the topics and
 * index pages, the stories, the most-studied entities, and the papers by month indexed, in parts.
 */
import { createHash } from 'node:crypto'
import { Elysia } from 'elysia'
import { sql } from 'drizzle-orm'
import { executeRows, type Db } from '../../db/client'
import { notFound, quoted } from '../../http/errors'
import { paperSiteUrl, storyUrl, topicSiteUrl } from '../../public-urls'
import { TOPIC_INFO } from '../../taxonomy'
import { paperFacets } from '../v1/facets/papers'
import { entitySitePath } from './links'
import { escapeXml as e } from './render'

/** URLs in one sitemap file: the protocol's limit. */
export const SITEMAP_LIMIT = 50_000
const hidden = { detail: { hide: true } }
const TEXT_CACHE = 'public, max-age=3600'
const DAY_CACHE = 'public, max-age=86400'

/** A flask with an ageing curve, in the site's link colour. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><title>Geroscope</title>' +
  '<rect width="32" height="32" rx="7" fill="#0a58a8"/>' +
  '<path d="M6 24c5 0 7-14 13-14 3 0 5 2 7 5" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round"/>' +
  '<circle cx="25" cy="22" r="3" fill="#f1a10d"/></svg>'

const FAVICON_ETAG = `"${createHash('sha256').update(FAVICON_SVG).digest('base64url').slice(0, 27)}"`

const xml = (body: string) =>
  new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`, {
    headers: { 'content-type': 'application/xml; charset=utf-8', 'cache-control': TEXT_CACHE },
  })

const urlOf = (u: { loc: string; lastmod?: string | null }) =>
  `<url><loc>${e(u.loc)}</loc>${u.lastmod ? `<lastmod>${e(u.lastmod)}</lastmod>` : ''}</url>`
const urlset = (urls: { loc: string; lastmod?: string | null }[]) =>
  xml(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.map(urlOf).join('\n')}\n</urlset>`)

/** Papers per month indexed (all papers: each has a page), oldest first, from the precomputed counts. */
async function papersByMonth(db: Db): Promise<{ month: string; n: number }[]> {
  const { group_by: months = [] } = await paperFacets(db, { minRelevance: 0 }, { group_by: 'indexed_month' })
  return months.map((g) => ({ month: String(g.key), n: g.count })).sort((a, b) => (a.month < b.month ? -1 : 1))
}

export function crawlModule({ db, base }: { db: Db; base: string }) {
  return new Elysia({ name: 'site-crawl' })
    .get(
      '/robots.txt',
      () =>
        new Response(
          [
            'User-agent: *',
            'Allow: /',
            'Disallow: /api/',
            'Allow: /api/v1/docs',
            'Disallow: /console',
            'Disallow: /search',
            '',
            `Sitemap: ${base}/sitemap.xml`,
            '',
          ].join('\n'),
          { headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': TEXT_CACHE } },
        ),
      hidden,
    )
    .get(
      '/favicon.svg',
      ({ request }) => {
        const headers = {
          'content-type': 'image/svg+xml',
          'cache-control': DAY_CACHE,
          'x-content-type-options': 'nosniff',
          etag: FAVICON_ETAG,
        }
        if (request.headers.get('if-none-match') === FAVICON_ETAG) return new Response(null, { status: 304, headers })
        return new Response(FAVICON_SVG, { headers })
      },
      hidden,
    )
    .get(
      '/favicon.ico',
      () => new Response(null, { status: 301, headers: { location: '/favicon.svg', 'cache-control': DAY_CACHE } }),
      hidden,
    )
    .get(
      '/sitemap.xml',
      async () => {
        const months = await papersByMonth(db)
        const files = [
          'pages',
          'stories',
          'entities',
          ...months.flatMap((m) =>
            Array.from({ length: Math.ceil(m.n / SITEMAP_LIMIT) }, (_, i) => `papers-${m.month}-${i + 1}`),
          ),
        ]
        return xml(
          `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${files
            .map((f) => `<sitemap><loc>${e(`${base}/sitemaps/${f}.xml`)}</loc></sitemap>`)
            .join('\n')}\n</sitemapindex>`,
        )
      },
      hidden,
    )
    .get(
      '/sitemaps/:file',
      async ({ params }) => {
        const file = params.file ?? ''
        if (file === 'pages.xml') {
          const topics = TOPIC_INFO.map((t) => ({ loc: topicSiteUrl(base, t.slug) }))
          return urlset([{ loc: `${base}/` }, { loc: `${base}/topics` }, ...topics])
        }
        if (file === 'stories.xml') {
          const rows = await executeRows<{ id: string; at: string }>(
            db,
            sql`
          select paper_id as id, to_char(published_at at time zone 'UTC', 'YYYY-MM-DD') as at
          from stories order by published_at desc, paper_id limit ${SITEMAP_LIMIT}`,
          )
          return urlset(rows.map((r) => ({ loc: storyUrl(base, r.id), lastmod: r.at })))
        }
        if (file === 'entities.xml') {
          const rows = await executeRows<{ type: string; key: string }>(
            db,
            sql`
          select type, key from entities where paper_count > 0
          order by paper_count desc, type, key limit ${SITEMAP_LIMIT}`,
          )
          return urlset(rows.map((r) => ({ loc: `${base}${entitySitePath(r.type, r.key)}` })))
        }
        const part = /^papers-(\d{4})-(0[1-9]|1[0-2])-([1-9]\d{0,3})\.xml$/.exec(file)
        if (part) {
          const from = `${part[1]}-${part[2]}-01`
          const rows = await executeRows<{ id: string; at: string }>(
            db,
            sql`
          select id, indexed_date::text as at from papers
          where indexed_date >= ${from}::date and indexed_date < (${from}::date + interval '1 month')
          order by id limit ${SITEMAP_LIMIT} offset ${(Number(part[3]) - 1) * SITEMAP_LIMIT}`,
          )
          if (rows.length) return urlset(rows.map((r) => ({ loc: paperSiteUrl(base, r.id), lastmod: r.at })))
        }
        throw notFound(`no sitemap ${quoted(file)}`)
      },
      hidden,
    )
}
