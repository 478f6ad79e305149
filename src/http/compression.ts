/**
 * Validators and compression for the Data API's JSON answers: a weak ETag on every 200,
 * 304 Not Modified when If-None-Match holds it, and the body in brotli or gzip when Accept-Encoding
 * asks for it. node:zlib runs on Bun and Node alike; the ETag's hash is the platform's (src/platform/digest.ts).
 *
 * With the response cache (src/modules/v1/response-cache.ts): a cached answer is the same
 * Uint8Array on every hit, so its ETag and compressed forms are kept beside it in a WeakMap and
 * computed once; they go when the cache lets the body go. They are not counted in the cache's
 * budget: they are at most the body's size again (compressed JSON is a fifth of it or less).
 * The ETag is weak because brotli, gzip and identity bodies differ byte for byte but mean the same.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { Elysia } from 'elysia'
import { bodyFingerprint } from '../platform/digest'
import { responseBody } from '../platform/response-body'

/** Bodies smaller than this go uncompressed: the headers would cost more than the saving. */
export const MIN_COMPRESS_BYTES = 1024
// Quality 4 of 11: answers computed for one request are compressed for it, so this is CPU on every
// such request. On a 36 kB list page (Bun 1.4.5): quality 5 took 458 µs for 7,778 bytes, 4 took 234
// µs for 8,206 (gzip level 6: 173 µs, 8,248); 11 costs tens of milliseconds (docs/benchmarks.md).
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }
// Level 5 of 9: within 0.5% of level 6's size for 13–30% less CPU on the Data API's pages.
const GZIP_LEVEL = 5

type Encoding = 'br' | 'gzip'
type Variants = { etag: string; br?: Uint8Array; gzip?: Uint8Array }

const encoder = new TextEncoder()
const variants = new WeakMap<Uint8Array, Variants>()

function variantsOf(body: Uint8Array): Variants {
  let v = variants.get(body)
  if (!v) {
    v = { etag: `W/"${bodyFingerprint(body)}"` }
    variants.set(body, v)
  }
  return v
}

function compressed(body: Uint8Array, encoding: Encoding): Uint8Array {
  const v = variantsOf(body)
  return (v[encoding] ??= encoding === 'br' ? brotliCompressSync(body, BROTLI) : gzipSync(body, { level: GZIP_LEVEL }))
}

/**
 * The encoding to answer in: br before gzip at equal preference, none when neither is acceptable.
 * `gzip;q=0` refuses gzip; `*` stands for any encoding not named.
 */
export function chooseEncoding(header: string | null): Encoding | null {
  if (!header) return null
  const q = new Map<string, number>()
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part
      .trim()
      .split(';')
      .map((s) => s.trim())
    if (!name) continue
    const qParam = params.find((p) => p.startsWith('q='))
    const value = qParam ? Number(qParam.slice(2)) : 1
    q.set(name, Number.isFinite(value) ? value : 0)
  }
  const weight = (name: Encoding) => q.get(name) ?? q.get('*') ?? 0
  const best = (['br', 'gzip'] as const).filter((e) => weight(e) > 0).sort((a, b) => weight(b) - weight(a))[0]
  return best ?? null
}

/** True when an If-None-Match header holds `etag` (weak comparison, as RFC 9110 asks for GET). */
export function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  const bare = (tag: string) => tag.trim().replace(/^W\//, '')
  return header.split(',').some((tag) => bare(tag) === bare(etag))
}

const appendVary = (current: unknown, value: string) =>
  typeof current === 'string' && current ? `${current}, ${value}` : value

type Headers = Record<string, unknown>

/** An answer already encoded in another media type (a CSV page), validated and compressed as JSON answers are. */
export class EncodedAnswer {
  constructor(
    readonly body: Uint8Array,
    readonly contentType: string,
  ) {}
}

/**
 * The answer to send for a 200 JSON `response` (an object, or the UTF-8 JSON the response cache
 * holds, or an EncodedAnswer), given the request's validators and encodings: a 304, or the body,
 * compressed or not.
 */
export function conditionalJson(
  request: Request,
  response: unknown,
  headers: Headers,
  validators = true,
): Response | null {
  let body: Uint8Array
  let contentType = 'application/json'
  if (response instanceof EncodedAnswer) ({ body, contentType } = response)
  else if (response instanceof Uint8Array) body = response
  else if (
    response !== null &&
    typeof response === 'object' &&
    !(response instanceof Response) &&
    !(response instanceof Blob) &&
    !(response instanceof ReadableStream)
  ) {
    body = encoder.encode(JSON.stringify(response))
  } else return null
  headers['vary'] = appendVary(headers['vary'], 'Accept-Encoding')
  const etag = validators ? variantsOf(body).etag : null
  if (etag) headers['etag'] = etag
  if (etag && matchesEtag(request.headers.get('if-none-match'), etag)) {
    delete headers['content-type']
    return new Response(null, { status: 304, headers: headers as Record<string, string> })
  }
  headers['content-type'] = contentType
  const encoding = body.byteLength >= MIN_COMPRESS_BYTES ? chooseEncoding(request.headers.get('accept-encoding')) : null
  if (encoding) headers['content-encoding'] = encoding
  return new Response(responseBody(encoding ? compressed(body, encoding) : body), {
    status: 200,
    headers: headers as Record<string, string>,
  })
}

/**
 * For the routes of the module that uses it: JSON answers that succeeded are compressed when asked;
 * GET answers also get an ETag and 304s. POST answers (batch lookups) are not representations of a
 * resource that a client could revalidate, so they get no ETag.
 */
export const compressionPlugin = new Elysia({ name: 'http-compression' }).mapResponse(
  { as: 'scoped' },
  ({ request, response, set }) => {
    if (set.status !== undefined && set.status !== 200) return
    if (request.method !== 'GET' && request.method !== 'POST') return
    return conditionalJson(request, response, set.headers as Headers, request.method === 'GET') ?? undefined
  },
)
