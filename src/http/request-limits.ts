/**
 * Our own limits on a request's URL and header fields, so an oversized request gets the contract's
 * envelope, with a request id and CORS headers, instead of the runtime's bare answer. The HTTP
 * parser is told to read heads up to PARSER_HEAD_BYTES (src/platform/serve.ts), well above these,
 * so requests between the two get our answer; beyond it (or past about 196 header fields on Bun)
 * the parser refuses on its own, with a bare 431 and no body.
 */
import { Elysia } from 'elysia'
import { refuseOverCap } from './client-connections'
import { ApiError } from './errors'

/** Path and query string, in bytes: 414 URI Too Long above it. */
export const MAX_URL_BYTES = 8 * 1024
/** Every header field's name and value (as `name: value` lines): 431 above it. */
export const MAX_HEADER_BYTES = 16 * 1024
/** Header fields: 431 above it. */
export const MAX_HEADER_FIELDS = 100
/** The most of a request head (request line and header fields) the runtime's parser reads. */
export const PARSER_HEAD_BYTES = 64 * 1024

const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`

/** Bytes of the request target: the URL from its path on. */
function targetBytes(url: string): number {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  return start === -1 ? 1 : url.length - start // request.url is ASCII: one byte a character
}

/** Throws a 414 or 431 invalid_parameter when the request is over a limit. */
export function checkRequestSize(request: Request): void {
  const urlBytes = targetBytes(request.url)
  if (urlBytes > MAX_URL_BYTES) {
    throw new ApiError(
      'invalid_parameter',
      `the URL is ${urlBytes} bytes long; at most ${kib(MAX_URL_BYTES)} (${MAX_URL_BYTES} bytes) are read`,
      {},
      414,
    )
  }
  let fields = 0
  let bytes = 0
  for (const [name, value] of request.headers) {
    fields++
    bytes += name.length + 2 + value.length + 2
  }
  if (fields > MAX_HEADER_FIELDS) {
    throw new ApiError(
      'invalid_parameter',
      `the request has ${fields} header fields; at most ${MAX_HEADER_FIELDS} are read`,
      {},
      431,
    )
  }
  if (bytes > MAX_HEADER_BYTES) {
    throw new ApiError(
      'invalid_parameter',
      `the header fields are ${bytes} bytes long; at most ${kib(MAX_HEADER_BYTES)} (${MAX_HEADER_BYTES} bytes) are ` +
        `read`,
      {},
      431,
    )
  }
}

/** Request bodies of the Data API (its largest is a batch of 500 ids): 413 above it. */
export const MAX_BODY_BYTES = 1024 * 1024
/** Request bodies of the admin interface (its largest is a prompt of 20,000 characters): 413 above it. */
export const MAX_ADMIN_BODY_BYTES = 256 * 1024
/** POST /api/v1/mcp reads its body itself and answers in JSON-RPC, as MCP clients expect. */
const OWN_BODY_LIMIT = new Set(['/api/v1/mcp'])

function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const end = url.indexOf('?', start)
  return start === -1 ? '/' : end === -1 ? url.slice(start) : url.slice(start, end)
}

/** The body cap of a path: the admin interface's (everything under /api but /api/v1) or everyone else's. */
export function bodyCap(path: string): number {
  const admin = (path === '/api' || path.startsWith('/api/')) && path !== '/api/v1' && !path.startsWith('/api/v1/')
  return admin ? MAX_ADMIN_BODY_BYTES : MAX_BODY_BYTES
}

/** How reading a body went: all of it within the cap, past the cap, or not all there by the deadline. */
type BodyOutcome = 'fits' | 'over' | 'late'

/**
 * Reads a stream until it ends, passes `cap` bytes or `deadlineMs` passes, whichever comes first,
 * and says which; reads no further than the first chunk past the cap.
 */
async function readBody(stream: ReadableStream<Uint8Array>, cap: number, deadlineMs: number): Promise<BodyOutcome> {
  const reader = stream.getReader()
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(resolve, deadlineMs, 'late')
  })
  const read = async (): Promise<BodyOutcome> => {
    let bytes = 0
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return 'fits'
      bytes += value.byteLength
      if (bytes > cap) return 'over'
    }
  }
  try {
    return await Promise.race([read(), late])
  } finally {
    clearTimeout(timer)
    void reader.cancel().catch(() => {})
  }
}

/** What a request body may take: at most `bodyTimeoutMs` from the request's head to its last byte. */
export type BodyLimits = { bodyTimeoutMs: number }

/**
 * One body cap however the body is framed, and one deadline for it: a declared
 * Content-Length over the cap is refused unread; any other body is read, through a copy (so the
 * route still gets all of it), until it ends, passes the cap or its time is up. Over the cap is a
 * 413, too slow a 408 (a body that is declared and never sent would otherwise hold its connection
 * until the runtime's idle timeout), both in the envelope with the request id and CORS headers.
 * The connection is closed after either, since the rest of the body was not read.
 */
export async function checkBodySize(request: Request, limits: BodyLimits): Promise<void> {
  if (request.body === null) return
  const path = pathOf(request.url)
  const ownLimit = OWN_BODY_LIMIT.has(path)
  const cap = ownLimit ? MAX_BODY_BYTES : bodyCap(path)
  const tooLong = `the body must be at most ${kib(cap)} (${cap} bytes)`
  const refuse = () => new ApiError('invalid_parameter', tooLong, { connection: 'close' }, 413)
  const declared = request.headers.get('content-length')
  if (!ownLimit && declared !== null && Number(declared) > cap) throw refuse()
  const outcome = await readBody(request.clone().body!, cap, limits.bodyTimeoutMs)
  if (outcome === 'late') {
    const seconds = limits.bodyTimeoutMs / 1000
    const message = `the body did not arrive in full within ${seconds} second${seconds === 1 ? '' : 's'}`
    throw new ApiError('invalid_parameter', message, { connection: 'close' }, 408)
  }
  if (outcome === 'over' && !ownLimit) throw refuse() // the MCP endpoint answers its own in JSON-RPC
}

/** The checks every request passes before routing: its client's share of connections, its URL, head and body. */
export const requestLimitsPlugin = (limits: BodyLimits) =>
  new Elysia({ name: 'request-limits', seed: limits.bodyTimeoutMs }).onRequest(async ({ request }) => {
    refuseOverCap(request)
    checkRequestSize(request)
    await checkBodySize(request, limits)
  })
