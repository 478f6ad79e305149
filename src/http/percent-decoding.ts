/**
 * Strict percent-decoding. The URL standard decodes percent-encoded bytes that are not UTF-8 (`%ff`,
 * an overlong `%c0%af`, a lone surrogate `%ed%a0%80`) into U+FFFD, so a malformed value would
 * quietly become a different, valid-looking one. Here the bytes are decoded as UTF-8 with errors
 * fatal, and a value that is not UTF-8 is refused by its caller.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const encoder = new TextEncoder()

/**
 * One component (a query name or value in form encoding: `+` is a space), or null when its bytes
 * are not UTF-8. A `%` not followed by two hex digits stays as it is, as URLSearchParams keeps it.
 */
export function decodeComponent(raw: string): string | null {
  const text = raw.replaceAll('+', ' ')
  if (!text.includes('%')) return text
  // request.url is ASCII (the URL parser percent-encodes the rest); any other character counts as its UTF-8.
  const bytes: number[] = []
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '%' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16))
      i += 2
    } else {
      bytes.push(...encoder.encode(text[i]))
    }
  }
  try {
    return utf8.decode(new Uint8Array(bytes))
  } catch {
    return null
  }
}

export type QueryEntry = { name: string | null; value: string | null; rawName: string }

/** The query string of `url`, split and strictly decoded; names and values that are not UTF-8 are null. */
export function queryEntries(url: string): QueryEntry[] {
  const start = url.indexOf('?')
  if (start === -1) return []
  const hash = url.indexOf('#', start)
  const query = url.slice(start + 1, hash === -1 ? undefined : hash)
  const entries: QueryEntry[] = []
  for (const part of query.split('&')) {
    if (part === '') continue
    const eq = part.indexOf('=')
    const rawName = eq === -1 ? part : part.slice(0, eq)
    entries.push({
      name: decodeComponent(rawName),
      value: decodeComponent(eq === -1 ? '' : part.slice(eq + 1)),
      rawName,
    })
  }
  return entries
}
