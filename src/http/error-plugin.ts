/**
 * Every failure leaves through here as the contract's envelope, with the request id: our ApiErrors
 * as they are, Elysia's validation errors as 400 invalid_parameter naming the parameter, unknown
 * paths as 404, a database that is unreachable or refusing connections as 503, and anything else
 * as a 500 that shows no internals. The envelope is JSON under /api and on the probes (/health, /healthz, /readyz); the
 * public site's pages fail as a small HTML page with the same status and message, drawn by the `page` option
 * (src/app.ts passes the site's, src/modules/site/render.ts), so HTTP's base does not import a feature module.
 * Code below HTTP throws DomainErrors (src/domain-errors.ts); they leave here with the code their kind names.
 * Registered before every route: Elysia hooks apply only to routes added after them.
 */
import { Elysia, type ValidationError } from 'elysia'
import { ApiError, errorEnvelope, excerpt, type ErrorCode } from './errors'
import { DomainError, type DomainErrorKind } from '../domain-errors'
import { isDatabaseUnavailable, isUnstorableText, UNAVAILABLE_MESSAGE } from '../db/database-errors'
import { log } from '../log'

export const RETRY_AFTER_UNAVAILABLE = '5'

/** Names the parameter at fault: "/limit" -> "limit". */
function describeValidation(error: ValidationError): string {
  const first = error.valueError
  const path = first?.path?.replace(/^\//, '').replace(/\//g, '.') || error.type
  const custom = typeof error.customError === 'string' ? error.customError : null
  if (custom) return custom
  if (!first) return `${error.type} is invalid`
  return `${path}: ${first.message.toLowerCase()}`
}

const PROBES = new Set(['/health', '/healthz', '/readyz'])

/** Paths whose callers are programs and read JSON: the APIs and the health and readiness probes. */
function answersJson(url: string): boolean {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const path = start === -1 ? '/' : url.slice(start).split(/[?#]/)[0]
  return path === '/api' || path.startsWith('/api/') || PROBES.has(path)
}

/** The HTML answer for a failure outside the JSON paths: its headers and its page. */
export type ErrorPage = { headers: Record<string, string>; render: (status: number, message: string) => string }
export type ErrorPluginOptions = { page?: ErrorPage }

const DOMAIN_CODES: Record<DomainErrorKind, ErrorCode> = {
  invalid_input: 'invalid_parameter',
  not_found: 'not_found',
  conflict: 'conflict',
  unavailable: 'unavailable',
}

type Failure = { errorCode: ErrorCode; message: string; headers?: Record<string, string>; status?: number }

function classify(code: string | number, error: unknown, request: Request, requestId: string | undefined): Failure {
  if (error instanceof ApiError)
    return { errorCode: error.errorCode, message: error.message, headers: error.headers, status: error.status }
  if (error instanceof DomainError) {
    const headers: Record<string, string> =
      error.retryAfterSeconds === undefined ? {} : { 'retry-after': String(error.retryAfterSeconds) }
    return { errorCode: DOMAIN_CODES[error.kind], message: error.message, headers }
  }
  if (code === 'VALIDATION')
    return { errorCode: 'invalid_parameter', message: describeValidation(error as ValidationError) }
  if (code === 'NOT_FOUND')
    return {
      errorCode: 'not_found',
      message: `no such path: ${request.method} ${excerpt(new URL(request.url).pathname)}`,
    }
  if (code === 'PARSE')
    return { errorCode: 'invalid_parameter', message: 'the request body is not valid for its content type' }
  if (isDatabaseUnavailable(error)) {
    return {
      errorCode: 'unavailable',
      message: UNAVAILABLE_MESSAGE,
      headers: { 'retry-after': RETRY_AFTER_UNAVAILABLE },
    }
  }
  if (isUnstorableText(error))
    return { errorCode: 'invalid_parameter', message: 'text must not contain the NUL character (\\u0000 or %00)' }
  log.error(
    { requestId: requestId ?? null, method: request.method, path: new URL(request.url).pathname, err: error },
    'request failed',
  )
  return {
    errorCode: 'internal_error',
    message: `internal error; quote request id ${requestId ?? 'unknown'} when reporting it`,
  }
}

export const errorPlugin = ({ page }: ErrorPluginOptions = {}) =>
  new Elysia({ name: 'errors' }).onError({ as: 'global' }, ({ code, error, set, request }) => {
    const failure = classify(code, error, request, set.headers['x-request-id'] as string | undefined)
    const envelope = errorEnvelope(failure.errorCode, failure.message, failure.status)
    set.status = envelope.error.status
    set.headers['cache-control'] = 'no-store'
    Object.assign(set.headers, failure.headers)
    if (answersJson(request.url) || !page) return envelope
    set.headers['content-type'] = 'text/html; charset=utf-8'
    Object.assign(set.headers, page.headers)
    return page.render(envelope.error.status, failure.message)
  })

/**
 * The server's answer when serving fails after the app, where no request is known any more: a
 * body that failed as it was sent (an export file removed between the route's check and its
 * first read, src/modules/v1/exports) or a fetch handler that threw. The envelope with a request id
 * of its own, logged with the error, instead of the runtime's own HTML page.
 */
export function serverFailure(error: unknown, logger = log): Response {
  const requestId = crypto.randomUUID()
  logger.error({ requestId, err: error }, 'answer failed while it was being sent')
  const envelope = errorEnvelope('internal_error', `internal error; quote request id ${requestId} when reporting it`)
  return new Response(JSON.stringify(envelope), {
    status: envelope.error.status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-request-id': requestId },
  })
}
