/**
 * Fetches one feed politely and defensively: a User-Agent that says who we are, conditional GET
 * (ETag / Last-Modified), one time limit for the whole exchange, a cap on the body size, a limit
 * on redirects, each hop checked against private addresses (address.ts) unless allowed.
 */
import { assertPublicHost } from './address'

export type FeedFetchOptions = {
  timeoutMs: number
  maxBytes: number
  maxRedirects: number
  allowPrivate: boolean
  userAgent: string
}

export const FEED_FETCH_DEFAULTS: FeedFetchOptions = {
  timeoutMs: 20_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  allowPrivate: false,
  userAgent: 'Geroscope/0.1 feed reader (aging-biology research digest; polls each feed at most every 30 minutes)',
}

export type Validators = { etag: string | null; lastModified: string | null }

export type FeedResponse =
  | { notModified: true; validators: Validators }
  | { notModified: false; bytes: Uint8Array; contentType: string | null; validators: Validators; url: string }

export class FeedFetchError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FeedFetchError'
  }
}

async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'))
  if (declared > maxBytes) {
    await response.body?.cancel()
    throw new FeedFetchError(`feed is larger than ${maxBytes} bytes (Content-Length ${declared})`)
  }
  if (!response.body) return new Uint8Array()
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel()
      throw new FeedFetchError(`feed is larger than ${maxBytes} bytes`)
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return bytes
}

function describe(error: unknown, timeoutMs: number): string {
  const name = error instanceof Error ? error.name : ''
  if (name === 'TimeoutError' || name === 'AbortError') return `no complete answer within ${timeoutMs} ms`
  return error instanceof Error ? error.message : String(error)
}

export async function fetchFeed(
  feedUrl: string,
  known: Validators,
  options: FeedFetchOptions = FEED_FETCH_DEFAULTS,
): Promise<FeedResponse> {
  const signal = AbortSignal.timeout(options.timeoutMs)
  let url = feedUrl
  try {
    for (let hop = 0; ; hop++) {
      const target = new URL(url)
      if (target.protocol !== 'http:' && target.protocol !== 'https:')
        throw new FeedFetchError(`unsupported URL scheme ${target.protocol}`)
      if (!options.allowPrivate) await assertPublicHost(target.hostname)
      const headers: Record<string, string> = {
        'user-agent': options.userAgent,
        accept:
          'application/rss+xml, application/atom+xml, application/rdf+xml, application/xml;q=0.9, text/xml;q=0.9, ' +
          '*/*;q=0.5',
      }
      if (known.etag) headers['if-none-match'] = known.etag
      if (known.lastModified) headers['if-modified-since'] = known.lastModified
      const response = await fetch(url, { headers, redirect: 'manual', signal })
      if (response.status >= 300 && response.status < 400 && response.status !== 304) {
        await response.body?.cancel()
        const location = response.headers.get('location')
        if (!location) throw new FeedFetchError(`HTTP ${response.status} without a Location`)
        if (hop >= options.maxRedirects) throw new FeedFetchError(`more than ${options.maxRedirects} redirects`)
        url = new URL(location, url).href
        continue
      }
      if (response.status === 304) {
        await response.body?.cancel()
        return { notModified: true, validators: known }
      }
      if (!response.ok) {
        await response.body?.cancel()
        throw new FeedFetchError(`HTTP ${response.status}`)
      }
      const bytes = await readCapped(response, options.maxBytes)
      const validators = { etag: response.headers.get('etag'), lastModified: response.headers.get('last-modified') }
      return { notModified: false, bytes, contentType: response.headers.get('content-type'), validators, url }
    }
  } catch (error) {
    if (error instanceof FeedFetchError) throw error
    throw new FeedFetchError(describe(error, options.timeoutMs))
  }
}
