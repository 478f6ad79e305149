/** Minimal, escaped HTML and RSS for the public pages that site_url, story url and feed_url point at. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

const STYLE = 'body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}a{color:#0b5cad}.meta{color:#666;font-size:.9rem}'

export function page(title: string, body: string): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeXml(title)} · Geroscope</title>
<style>${STYLE}</style>
</head><body><p><a href="/">Geroscope</a></p>${body}</body></html>`
  return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=300' } })
}

export const paragraphs = (text: string) =>
  text.split(/\n\s*\n/).map((p) => `<p>${escapeXml(p.trim())}</p>`).join('\n')

export type FeedItem = { title: string; link: string; description: string; published: Date; guid: string }

export function rss(title: string, link: string, description: string, items: FeedItem[]): Response {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel>
<title>${escapeXml(title)}</title><link>${escapeXml(link)}</link><description>${escapeXml(description)}</description>
${items.map((i) => `<item><title>${escapeXml(i.title)}</title><link>${escapeXml(i.link)}</link><guid isPermaLink="false">${escapeXml(i.guid)}</guid><pubDate>${i.published.toUTCString()}</pubDate><description>${escapeXml(i.description)}</description></item>`).join('\n')}
</channel></rss>`
  return new Response(xml, { headers: { 'content-type': 'application/rss+xml; charset=utf-8', 'cache-control': 'public, max-age=300' } })
}

const ERROR_TITLES: Record<number, string> = {
  400: 'Bad request', 404: 'Page not found', 429: 'Too many requests', 500: 'Something went wrong', 503: 'Temporarily unavailable',
}

/** The HTML of a site page that failed: its status in words, the reason, and the way home. */
export function errorPage(status: number, message: string): string {
  const title = ERROR_TITLES[status] ?? `Error ${status}`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeXml(title)} · Geroscope</title>
<style>${STYLE}</style>
</head><body><p><a href="/">Geroscope</a></p><h1>${escapeXml(title)}</h1><p>${escapeXml(message)}</p>
${status === 503 ? '<p class="meta">Please try again in a moment.</p>' : ''}<p><a href="/">Go to the home page</a></p></body></html>`
}
