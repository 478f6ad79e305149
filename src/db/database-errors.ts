/**
 * Tells a database that cannot serve now (answer 503, retry later) from every other failure: one
 * that cannot be reached, one that lost the connection, and one that is up but turns clients away,
 * because it is starting, stopping or out of connection slots, memory or disk.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57P01',
  '57P02',
  '57P03', // admin_shutdown, crash_shutdown, cannot_connect_now (starting up, in recovery)
  '08000',
  '08001',
  '08003',
  '08004',
  '08006', // connection exceptions
  // Class 53, insufficient resources: too_many_connections (a full server, or a role or database at
  // its CONNECTION LIMIT), disk_full, out_of_memory, configuration_limit_exceeded, and the class itself.
  '53000',
  '53100',
  '53200',
  '53300',
  '53400',
])

/**
 * Text PostgreSQL cannot store (a NUL character, which JSON bodies can carry as \u0000): the
 * caller's input, so a 400 rather than a 500, wherever a parser did not catch it first.
 */
const UNSTORABLE_TEXT_CODES = new Set(['22021', '22P05']) // character_not_in_repertoire, untranslatable_character

function hasCode(error: unknown, codes: Set<string>): boolean {
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === 'string' && codes.has(e.code)) return true
  }
  return false
}

/** The 503's message, wherever the database is found unavailable (a failed query, the breaker). */
export const UNAVAILABLE_MESSAGE = 'the database cannot be reached or is refusing connections; retry with backoff'

export const isDatabaseUnavailable = (error: unknown) => hasCode(error, UNAVAILABLE_CODES)
export const isUnstorableText = (error: unknown) => hasCode(error, UNSTORABLE_TEXT_CODES)
