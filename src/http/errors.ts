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
 * take a `code` field for its own error kind. `status` is the code's own unless
 * HTTP has a more precise one for the case (414 and 431 for an oversized invalid_parameter).
 */
export class ApiError extends Error {
  readonly status: number
  constructor(
    readonly errorCode: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    status?: number,
  ) {
    super(message)
    this.name = 'ApiError'
    this.status = status ?? ERROR_STATUS[errorCode]
  }
}

export type ErrorEnvelope = { error: { status: number; code: ErrorCode; message: string } }

export function errorEnvelope(
  errorCode: ErrorCode,
  message: string,
  status: number = ERROR_STATUS[errorCode],
): ErrorEnvelope {
  return { error: { status, code: errorCode, message } }
}

export const invalidParameter = (message: string) => new ApiError('invalid_parameter', message)
export const notFound = (message: string) => new ApiError('not_found', message)
export const conflict = (message: string) => new ApiError('conflict', message)

/** Longest piece of a caller's input that a message repeats. */
export const ECHO_LIMIT = 64

/** `input` cut to ECHO_LIMIT characters (whole code points), and whether it was cut. */
function cut(input: string): { text: string; cut: boolean } {
  const head = Array.from(input.slice(0, 2 * ECHO_LIMIT)) // a character is one or two code units
  if (head.length <= ECHO_LIMIT && input.length <= 2 * ECHO_LIMIT) return { text: input, cut: false }
  return { text: head.slice(0, ECHO_LIMIT).join(''), cut: true }
}

/**
 * A caller's input as an error message shows it: cut to ECHO_LIMIT characters with an ellipsis, so
 * a 10 KB id does not come back as a 10 KB message. `quoted` also puts it in JSON quotes, which
 * shows spaces and escapes control characters.
 */
export function excerpt(input: string): string {
  const { text, cut: wasCut } = cut(input)
  return wasCut ? `${text}…` : text
}

export function quoted(input: string): string {
  const { text, cut: wasCut } = cut(input)
  return wasCut ? `${JSON.stringify(text)}…` : JSON.stringify(text)
}
