/**
 * Every failure leaves through here as the contract's envelope, with the request id: our ApiErrors
 * as they are, Elysia's validation errors as 400 invalid_parameter naming the parameter, unknown
 * paths as 404, a lost database as 503, and anything else as a 500 that shows no internals.
 * Registered before every route: Elysia hooks apply only to routes added after them.
 */
import { Elysia, ValidationError } from 'elysia'
import { ApiError, errorEnvelope } from './errors'
import { isDatabaseUnreachable, isUnstorableText } from './database-errors'

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

export const errorPlugin = new Elysia({ name: 'errors' })
  .onError({ as: 'global' }, ({ code, error, set, request }) => {
    set.headers['cache-control'] = 'no-store'
    if (error instanceof ApiError) {
      set.status = error.status
      Object.assign(set.headers, error.headers)
      return errorEnvelope(error.errorCode, error.message)
    }
    if (code === 'VALIDATION') {
      set.status = 400
      return errorEnvelope('invalid_parameter', describeValidation(error as ValidationError))
    }
    if (code === 'NOT_FOUND') {
      set.status = 404
      return errorEnvelope('not_found', `no such path: ${request.method} ${new URL(request.url).pathname}`)
    }
    if (code === 'PARSE') {
      set.status = 400
      return errorEnvelope('invalid_parameter', 'the request body is not valid for its content type')
    }
    if (isDatabaseUnreachable(error)) {
      set.status = 503
      set.headers['retry-after'] = RETRY_AFTER_UNAVAILABLE
      return errorEnvelope('unavailable', 'the database cannot be reached; retry with backoff')
    }
    if (isUnstorableText(error)) {
      set.status = 400
      return errorEnvelope('invalid_parameter', 'text must not contain the NUL character (\\u0000 or %00)')
    }
    const requestId = set.headers['x-request-id']
    console.error(`[${requestId ?? '-'}] ${request.method} ${new URL(request.url).pathname} failed:`, error)
    set.status = 500
    return errorEnvelope('internal_error', `internal error; quote request id ${requestId ?? 'unknown'} when reporting it`)
  })
