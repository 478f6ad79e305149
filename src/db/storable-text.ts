/**
 * Text from outside (feeds, Europe PMC records, model answers, error messages) made storable.
 * PostgreSQL refuses U+0000 in text and jsonb ('invalid byte sequence for encoding "UTF8": 0x00',
 * 'unsupported Unicode escape sequence'), and jsonb refuses a lone UTF-16 surrogate, which a text
 * column silently turns into U+FFFD. One such character would fail the whole statement it rides in
 * (a page of papers, a feed's articles) on every run. So NUL is dropped, and a lone surrogate
 * becomes U+FFFD as a UTF-8 encoder writes it; every other character is kept.
 *
 * Applied where outside data is mapped to our rows (rss/parse.ts, europepmc/mapping.ts,
 * analysis/llm/client.ts) and to every error text written to the database.
 */

/** `text` without NUL characters and with every lone surrogate replaced by U+FFFD. */
export function storableText(text: string): string {
  const kept = text.includes('\u0000') ? text.replaceAll('\u0000', '') : text
  return kept.isWellFormed() ? kept : kept.toWellFormed()
}

/** A JSON-like value with every string in it (object keys too) made storable; other values as they are. */
export function storable<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T
  if (Array.isArray(value)) return value.map(storable) as T
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) out[storableText(key)] = storable(item)
    return out as T
  }
  return value
}

/**
 * The message of `error`, storable and at most `max` characters, for columns such as
 * rss_sources.last_error and job_runs.error: writing down a failure must never fail itself.
 * drizzle wraps a refused statement in "Failed query: <sql> params: <every value>", which says
 * nothing precise and can run to megabytes; the database's own reason is in its cause.
 */
export function errorText(error: unknown, max = 500): string {
  let message = error instanceof Error ? error.message : String(error)
  const cause = error instanceof Error ? (error.cause as { message?: unknown } | undefined) : undefined
  if (message.startsWith('Failed query:') && typeof cause?.message === 'string')
    message = `the database refused the write: ${cause.message}`
  return storableText(message.length > max ? message.slice(0, max) : message)
}
