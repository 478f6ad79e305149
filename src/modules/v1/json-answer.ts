/**
 * Answers whose JSON is written before it reaches the route's return (the claim items PostgreSQL
 * writes, src/queries/claims.ts): through the response cache as the same bytes, or straight out,
 * either way sent as they are by the compression plugin (src/http/compression.ts), which also gives
 * them their ETag. Typed as the route's answer, like cachedJson's bytes.
 */
import type { ResponseCache } from './response-cache'

const encoder = new TextEncoder()

export async function cachedJsonText<T>(
  cache: ResponseCache | null, request: Request, set: { headers: Record<string, unknown> }, compute: () => Promise<string>,
): Promise<T> {
  const bytes = async () => encoder.encode(await compute())
  const url = request.url
  const body = cache ? await cache.bytes(url.slice(url.indexOf('/', url.indexOf('//') + 2)), bytes) : await bytes()
  set.headers['content-type'] = 'application/json'
  return body as unknown as T
}
