/**
 * The Europe PMC search client: one page of a cursor-paged `search` request, with retries.
 * Timeouts, 429 (honouring Retry-After) and 5xx are retried with exponential backoff and full
 * jitter. Anything else fails the page at once, and so does a body that is not a whole search answer
 * (truncated, malformed): the run stops cleanly and the next run starts again from the saved cursor.
 */
import type { EuropePmcRecord } from './record'

export type SearchPage = {
  hitCount: number
  nextCursorMark: string | null
  records: EuropePmcRecord[]
}

export type ClientOptions = {
  baseUrl: string // e.g. https://www.ebi.ac.uk/europepmc/webservices/rest (no trailing slash needed)
  pageSize?: number // 1..1000
  timeoutMs?: number // per attempt, body included
  retries?: number // attempts after the first
  backoffMs?: number // first backoff; doubles per attempt, capped at maxBackoffMs
  maxBackoffMs?: number
  maxRetryAfterMs?: number // a longer Retry-After ends the run instead: the next run resumes at this page
  userAgent?: string
  sleep?: (ms: number) => Promise<void> // tests observe the waits instead of sitting through them
  random?: () => number
}

/** A page that can never succeed as asked, or that failed every retry. */
export class EuropePmcError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message)
    this.name = 'EuropePmcError'
  }
}

const DEFAULTS = {
  pageSize: 1000,
  timeoutMs: 60_000,
  retries: 5,
  backoffMs: 1000,
  maxBackoffMs: 60_000,
  maxRetryAfterMs: 300_000,
}
export const USER_AGENT = 'Geroscope/0.1 (aging-biology literature service; +https://github.com/geroscope)'

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Retry-After is seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000
  const at = Date.parse(header)
  return Number.isNaN(at) ? null : Math.max(0, at - now)
}

export function searchUrl(baseUrl: string, query: string, cursorMark: string, pageSize: number): string {
  const params = new URLSearchParams({
    query,
    resultType: 'core',
    format: 'json',
    pageSize: String(pageSize),
    cursorMark,
    synonym: 'false',
  })
  return `${baseUrl.replace(/\/+$/, '')}/search?${params}`
}

/** Checks the answer is a whole search response; a truncated or foreign body throws. */
export function readSearchPage(body: string): SearchPage {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    throw new EuropePmcError(`malformed JSON in the search answer (${body.length} bytes, truncated?)`, false)
  }
  const answer = parsed as { hitCount?: unknown; nextCursorMark?: unknown; resultList?: { result?: unknown } }
  if (typeof answer !== 'object' || answer === null || typeof answer.hitCount !== 'number') {
    throw new EuropePmcError('the search answer has no hitCount', false)
  }
  const result = answer.resultList?.result ?? []
  if (!Array.isArray(result)) throw new EuropePmcError('the search answer has no result list', false)
  const next = typeof answer.nextCursorMark === 'string' && answer.nextCursorMark ? answer.nextCursorMark : null
  return { hitCount: answer.hitCount, nextCursorMark: next, records: result as EuropePmcRecord[] }
}

async function attempt(url: string, options: Required<Omit<ClientOptions, 'sleep' | 'random'>>) {
  const response = await fetch(url, {
    headers: { accept: 'application/json', 'user-agent': options.userAgent },
    signal: AbortSignal.timeout(options.timeoutMs),
  })
  const body = await response.text()
  return { response, body }
}

/** Fetches one page, retrying what may pass with time. */
export async function fetchSearchPage(options: ClientOptions, query: string, cursorMark: string): Promise<SearchPage> {
  const o = { ...DEFAULTS, userAgent: USER_AGENT, ...options }
  const sleep = options.sleep ?? realSleep
  const random = options.random ?? Math.random
  const url = searchUrl(o.baseUrl, query, cursorMark, o.pageSize)
  let lastError: EuropePmcError = new EuropePmcError('no attempt made', true)
  for (let tries = 0; tries <= o.retries; tries++) {
    let waitAtLeast = 0
    try {
      const { response, body } = await attempt(url, o)
      if (response.ok) return readSearchPage(body)
      const retryable = response.status === 429 || response.status >= 500
      lastError = new EuropePmcError(`Europe PMC answered HTTP ${response.status}`, retryable)
      if (!retryable) throw lastError
      waitAtLeast = retryAfterMs(response.headers.get('retry-after')) ?? 0
      if (waitAtLeast > o.maxRetryAfterMs) {
        throw new EuropePmcError(
          `Europe PMC asked to wait ${Math.ceil(waitAtLeast / 1000)} s (HTTP ${response.status}); the next run ` +
            `resumes here`,
          false,
        )
      }
    } catch (error) {
      if (error instanceof EuropePmcError) {
        if (!error.retryable) throw error
        lastError = error
      } else {
        const name = error instanceof Error ? error.name : ''
        const timedOut = name === 'TimeoutError' || name === 'AbortError'
        lastError = new EuropePmcError(
          timedOut
            ? `Europe PMC did not answer within ${o.timeoutMs} ms`
            : `Europe PMC could not be reached: ${error instanceof Error ? error.message : String(error)}`,
          true,
        )
      }
    }
    if (tries === o.retries) break
    // Full jitter keeps many clients from retrying in step; Retry-After is a floor, never shortened.
    const backoff = random() * Math.min(o.maxBackoffMs, o.backoffMs * 2 ** tries)
    await sleep(Math.max(waitAtLeast, backoff))
  }
  throw new EuropePmcError(`${lastError.message} (gave up after ${o.retries + 1} attempts)`, true)
}
