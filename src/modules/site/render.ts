/** The frame and escaping of the public pages (site, API reference, error pages). */
import { createHash } from 'node:crypto'
import { responseBody } from '../../platform/response-body'

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

const STYLE = [
  ':root{color-scheme:light}',
  'body{font:16px/1.55 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fff}',
  '.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:10}',
  'header,main,footer{max-width:48rem;margin:0 auto;padding:0 1rem}',
  'header{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center;padding-top:1rem;padding-bottom:.5rem;' +
    'border-bottom:1px solid #ddd}',
  'header .brand{font-weight:700;font-size:1.15rem;text-decoration:none;color:#1d1d1f}',
  'header nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:1rem;margin:0;padding:0}',
  'footer{margin-top:3rem;padding-top:1rem;padding-bottom:2rem;border-top:1px solid ' +
    '#ddd;font-size:.9rem;color:#4a4a4a}',
  'a{color:#0a58a8}a:focus-visible{outline:3px solid #f1a10d;outline-offset:2px}',
  'h1{font-size:1.7rem;line-height:1.25}h2{font-size:1.25rem;margin-top:2rem}',
  '.meta{color:#4a4a4a;font-size:.92rem}',
  'ul.items{padding-left:1.2rem}ul.items li{margin:.4rem 0}',
  'dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dl.facts dt{font-weight:600}dl.facts ' +
    'dd{margin:0}',
  '.verdict{border-left:4px solid #0a58a8;background:#f3f7fc;padding:.5rem 1rem}',
  // A long DOI or other unbroken link text wraps instead of widening a 390 px page (test/browser/long-links.test.ts).
  'article{overflow-wrap:anywhere}dl.facts dd{min-width:0}',
  'form.search{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0}form.search input{flex:1 1 ' +
    '12rem;font:inherit;padding:.4rem}',
  'form.search button{font:inherit;padding:.4rem 1rem}',
  'form.search fieldset{flex:1 1 100%;display:flex;flex-wrap:wrap;gap:.5rem 1rem;margin:0;border:1px solid #ddd}',
  'form.search fieldset label{display:flex;flex-direction:column;font-size:.92rem}',
  'form.search fieldset input{flex:none}',
  'pre{background:#f5f5f5;padding:.75rem;overflow-x:auto;font-size:.85rem}code{font-size:.9em}',
  'table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}',
  'nav.pager{display:flex;gap:1rem;margin-top:1rem}',
  'figure.chart{margin:1.5rem 0}figure.chart svg{display:block;width:100%;height:auto}figure.chart ' +
    'svg.chart-narrow{display:none}figure.chart svg.chart-small{max-width:20rem}',
  'figcaption{font-size:.92rem;color:#4a4a4a;margin-top:.25rem}.scroll{overflow-x:auto;' +
    'max-width:100%}td.n{text-align:right}',
  '.badge{display:inline-block;font-size:.8rem;padding:0 .4rem;border:1px solid ' +
    '#0a58a8;border-radius:.6rem;color:#0a3d75}',
  '.snippet{margin:.2rem 0;font-size:.92rem}mark{background:#fff1b8;color:inherit}ol.hits li{margin:.8rem 0}',
  'details.filters{flex-basis:100%}.fields{display:flex;flex-wrap:wrap;gap:.5rem 1rem;margin-top:.5rem}.fields ' +
    'select,.fields input{font:inherit}',
  'ul.filter-links{list-style:none;padding:0;font-size:.92rem}ul.filter-links li{margin:.2rem 0}',
  '@media (max-width:40rem){figure.chart svg.chart-wide{display:none}figure.chart svg.chart-narrow{display:block}}',
  '@media (max-width:30rem){dl.facts{grid-template-columns:1fr}dl.facts dd{margin-bottom:.5rem}}',
].join('')

export type Layout = {
  title: string
  body: string // the content of <main>
  head?: string // extra <head> markup (feed links, stylesheets)
  wide?: boolean // the API reference needs the full width
  scripts?: string[] // external scripts, loaded at the end of <body>
}

/** The frame of every public page: skip link, banner with navigation, main, footer with credit. */
const WIDE_STYLE = 'main{max-width:none}'
const styleHash = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`
const FRAME = ["default-src 'none'", "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'"]

/** Site pages and HTML error pages: no script at all, and no style but the page's own (allowed by its hash). */
export const PAGE_CSP = [
  ...FRAME,
  "img-src 'self'",
  `style-src ${styleHash(STYLE)} ${styleHash(STYLE + WIDE_STYLE)}`,
].join('; ')
/**
 * The API references: Swagger UI's script and styles from this origin; it sets inline styles on its
 * elements, draws icons from data: URLs and, for Try it out, calls the API on this origin.
 */
export const REFERENCE_CSP = [
  ...FRAME,
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
].join('; ')

/** Headers on every HTML page: its CSP, no framing, no sniffing, no full URL to other sites. */
export const htmlSecurityHeaders = (csp: string) => ({
  'content-security-policy': csp,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
})

export function layout({ title, body, head = '', wide = false, scripts = [] }: Layout): string {
  return (
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeXml(title)} · Geroscope</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${STYLE}${wide ? WIDE_STYLE : ''}</style>
<link rel="alternate" type="application/rss+xml" title="Geroscope: all stories" href="/feed.xml">
${head}</head><body><a class="skip" href="#main">Skip to content</a>
<header><a class="brand" href="/">Geroscope</a><nav aria-label="Site"><ul><li><a href="/">Home</a></li><li>` +
    `<a href="/topics">Topics</a></li><li><a href="/search">Search</a></li><li><a href="/api/v1/docs">Data API</a>` +
    `</li><li><a href="/feed.xml">RSS</a></li></ul></nav></header>
<main id="main">${body}</main>
<footer><p>Judgements, stories, entities and claims are written by Geroscope (the operator of this site) from the ` +
    `papers' public records, and may be wrong: read the paper. Paper texts belong to their authors.</p></footer>
${scripts.map((src) => `<script src="${escapeXml(src)}"></script>`).join('')}</body></html>`
  )
}

const encoder = new TextEncoder()

/** A page as bytes, so one larger than Bun's cork buffer leaves as one write (src/platform/response-body.ts). */
export function html(markup: string | Uint8Array, cacheControl = 'public, max-age=60', csp = PAGE_CSP): Response {
  const bytes = typeof markup === 'string' ? encoder.encode(markup) : markup
  return new Response(responseBody(bytes), {
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': cacheControl, ...htmlSecurityHeaders(csp) },
  })
}

export function page(title: string, body: string, head = ''): Response {
  return html(layout({ title, body, head }))
}

export const paragraphs = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((p) => `<p>${escapeXml(p.trim())}</p>`)
    .join('\n')

const ERROR_TITLES: Record<number, string> = {
  400: 'Bad request',
  404: 'Page not found',
  429: 'Too many requests',
  500: 'Something went wrong',
  503: 'Temporarily unavailable',
}

/** The HTML of a site page that failed: its status in words, the reason, and the way home. */
export function errorPage(status: number, message: string): string {
  const title = ERROR_TITLES[status] ?? `Error ${status}`
  return layout({
    title,
    body: `<h1>${escapeXml(title)}</h1><p>${escapeXml(message)}</p>
${status === 503 ? '<p class="meta">Please try again in a moment.</p>' : ''}<p><a href="/">Go to the home page</a></p>`,
  })
}
