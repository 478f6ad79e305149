/** Tells a lost database connection (answer 503, retry later) from every other failure. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH',
  'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT',
  '57P01', '57P02', '57P03', // admin_shutdown, crash_shutdown, cannot_connect_now
  '08000', '08001', '08003', '08004', '08006', // connection exceptions
])

/**
 * Text PostgreSQL cannot store (a NUL character, which JSON bodies can carry as \u0000): the
 * caller's input, so a 400 rather than a 500, wherever a parser did not catch it first.
 */
const UNSTORABLE_TEXT_CODES = new Set(['22021', '22P05']) // character_not_in_repertoire, untranslatable_character

function hasCode(error: unknown, codes: Set<string>): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && codes.has(e.code)) return true
  }
  return false
}

export const isDatabaseUnreachable = (error: unknown) => hasCode(error, UNREACHABLE_CODES)
export const isUnstorableText = (error: unknown) => hasCode(error, UNSTORABLE_TEXT_CODES)
