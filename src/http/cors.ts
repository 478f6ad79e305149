/**
 * CORS as docs/contract-decisions.md sets it: any origin, preflight answered without a key, and the rate-limit
 * headers, Retry-After and X-Request-Id exposed to browser code (and a 401's WWW-Authenticate).
 * No credentials: the Data API uses bearer keys, and the admin interface's cookies must never be
 * sent cross-site.
 */
import { cors } from '@elysiajs/cors'
import { Elysia } from 'elysia'

export const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Used',
  'X-RateLimit-Minute-Limit',
  'X-RateLimit-Minute-Remaining',
  'X-RateLimit-Minute-Reset',
  'Retry-After',
  'X-Request-Id',
  'WWW-Authenticate',
  'ETag',
  'Content-Range',
  'Accept-Ranges',
  'Content-Disposition', // export downloads (src/modules/v1/exports)
  'Link', // the next page of a CSV answer (src/modules/v1/csv)
]

const corsHeaders = cors({
  origin: '*',
  methods: ['GET', 'HEAD', 'POST', 'OPTIONS'], // POST: /api/v1/papers/batch
  // Range and the validators: resuming an export download, revalidating an answer by its ETag.
  allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'Range', 'If-Range', 'If-None-Match'],
  exposeHeaders: EXPOSED_HEADERS,
  credentials: false,
  maxAge: 600,
})

/**
 * The plugin answers any origin with `Vary: *`, which tells every cache that no stored answer can
 * ever be reused: wrong beside a public max-age (site pages, feeds, the reference's assets). With
 * `Access-Control-Allow-Origin: *` the answer does not depend on Origin at all, so nothing varies;
 * the Data API's gate sets `Vary: Authorization` itself.
 */
export const corsPlugin = new Elysia({ name: 'cors-without-vary-star' }).use(corsHeaders).onRequest(({ set }) => {
  if (set.headers.vary === '*') delete set.headers.vary
})
