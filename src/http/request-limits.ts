/**
 * Our own limits on a request's URL and header fields, so an oversized request gets the contract's
 * envelope, with a request id and CORS headers, instead of the runtime's bare answer. The HTTP
 * parser is told to read heads up to PARSER_HEAD_BYTES (src/platform/serve.ts), well above these,
 * so requests between the two get our answer; beyond it (or past about 196 header fields on Bun)
 * the parser refuses on its own, with a bare 431 and no body.
 */
import { Elysia } from 'elysia'
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
    throw new ApiError('invalid_parameter', `the URL is ${urlBytes} bytes long; at most ${kib(MAX_URL_BYTES)} (${MAX_URL_BYTES} bytes) are read`, {}, 414)
  }
  let fields = 0
  let bytes = 0
  for (const [name, value] of request.headers) {
    fields++
    bytes += name.length + 2 + value.length + 2
  }
  if (fields > MAX_HEADER_FIELDS) {
    throw new ApiError('invalid_parameter', `the request has ${fields} header fields; at most ${MAX_HEADER_FIELDS} are read`, {}, 431)
  }
  if (bytes > MAX_HEADER_BYTES) {
    throw new ApiError('invalid_parameter', `the header fields are ${bytes} bytes long; at most ${kib(MAX_HEADER_BYTES)} (${MAX_HEADER_BYTES} bytes) are read`, {}, 431)
  }
}

export const requestLimitsPlugin = new Elysia({ name: 'request-limits' })
  .onRequest(({ request }) => checkRequestSize(request))
