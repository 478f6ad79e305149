/**
 * The one place that knows the error codes, their HTTP statuses and the envelope
 * `{ error: { status, code, message } }` shared by /api/v1 and the admin interface.
 */
export const ERROR_STATUS = {
  invalid_parameter: 400,
  missing_key: 401,
  invalid_key: 401,
  revoked_key: 401,
  unauthenticated: 401,
  invalid_credentials: 401,
  plan_required: 403,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

/**
 * A failure the caller should see as it is. The field is `errorCode`, not `code`: Elysia would
 * take a `code` field for its own error kind (see stack notes).
 */
export class ApiError extends Error {
  readonly status: number
  constructor(readonly errorCode: ErrorCode, message: string, readonly headers: Record<string, string> = {}) {
    super(message)
    this.name = 'ApiError'
    this.status = ERROR_STATUS[errorCode]
  }
}

export type ErrorEnvelope = { error: { status: number; code: ErrorCode; message: string } }

export function errorEnvelope(errorCode: ErrorCode, message: string): ErrorEnvelope {
  return { error: { status: ERROR_STATUS[errorCode], code: errorCode, message } }
}

export const invalidParameter = (message: string) => new ApiError('invalid_parameter', message)
export const notFound = (message: string) => new ApiError('not_found', message)
export const conflict = (message: string) => new ApiError('conflict', message)
