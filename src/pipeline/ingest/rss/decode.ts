/**
 * Feed bytes to text. Order of evidence (RFC 7303): a byte-order mark, then the Content-Type
 * charset, then the XML declaration's encoding, else UTF-8. Real feeds lie about it, so, as
 * miniflux does: bytes that are valid UTF-8 are read as UTF-8 even when a single-byte encoding is
 * declared (Latin-1 text is almost never valid UTF-8 by accident).
 *
 * Bytes that are not all valid UTF-8 under a UTF-8 (or missing, or unknown) label are either UTF-8
 * with a few bad bytes (a pasted Latin-1 character, a truncated sequence) or another encoding under
 * a wrong label, nearly always windows-1252 (the superset of Latin-1). Whichever reading damages
 * fewer characters wins: read as UTF-8, only the invalid sequences are lost (each becomes U+FFFD);
 * read as windows-1252, every valid multi-byte sequence turns into two or three wrong characters.
 * So UTF-8 is kept when its valid multi-byte sequences are at least as many as its invalid ones.
 * Windows-1252 text is almost never a valid multi-byte sequence by accident (a capital accented
 * letter followed by a symbol), so a real windows-1252 feed has nearly none and stays windows-1252.
 */
export type DecodedFeed = { text: string; encoding: string }

const label = (name: string) =>
  name
    .trim()
    .replace(/^["']|["']$/g, '')
    .toLowerCase()

/** The charset parameter of a Content-Type header, if any. */
export function charsetOf(contentType: string | null): string | null {
  const match = contentType?.match(/;\s*charset\s*=\s*("?)([^";\s]+)\1/i)
  return match ? label(match[2]) : null
}

/** The encoding named in `<?xml ... encoding="..."?>`, read from the ASCII-compatible start. */
export function declaredEncoding(bytes: Uint8Array): string | null {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 512))
  const match = head.match(/^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/)
  return match ? label(match[1]) : null
}

function bomEncoding(bytes: Uint8Array): { encoding: string; skip: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', skip: 3 }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', skip: 2 }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', skip: 2 }
  return null
}

function decoderFor(encoding: string): TextDecoder | null {
  try {
    return new TextDecoder(encoding)
  } catch {
    return null
  }
}

function strictUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return null
  }
}

/** Valid multi-byte sequences and invalid ones (each maximal bad subpart counted once, as a decoder replaces it). */
export function utf8Tally(bytes: Uint8Array): { valid: number; invalid: number } {
  let valid = 0
  let invalid = 0
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i]
    if (lead < 0x80) {
      i++
      continue
    }
    const need =
      lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : 0
    if (need === 0) {
      invalid++
      i++
      continue
    }
    // The second byte's range excludes overlong forms and surrogates (Unicode table 3-7).
    let low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80
    let high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf
    let read = 1
    while (read <= need && bytes[i + read] >= low && bytes[i + read] <= high) {
      read++
      low = 0x80
      high = 0xbf
    }
    if (read > need) valid++
    else invalid++
    i += read
  }
  return { valid, invalid }
}

const isUtf16 = (encoding: string) => encoding.startsWith('utf-16') || encoding === 'unicode' || encoding === 'ucs-2'

export function decodeFeed(bytes: Uint8Array, contentType: string | null): DecodedFeed {
  const bom = bomEncoding(bytes)
  if (bom) return { text: new TextDecoder(bom.encoding).decode(bytes.subarray(bom.skip)), encoding: bom.encoding }

  const named = charsetOf(contentType) ?? declaredEncoding(bytes)
  const decoder = named ? decoderFor(named) : null
  const encoding = decoder?.encoding ?? 'utf-8' // canonical name; an unknown label counts as none
  if (decoder && isUtf16(encoding)) return { text: decoder.decode(bytes), encoding }

  const utf8 = strictUtf8(bytes)
  if (utf8 !== null) return { text: utf8.replace(/^\uFEFF/, ''), encoding: 'utf-8' }
  if (decoder && encoding !== 'utf-8') return { text: decoder.decode(bytes), encoding }
  const { valid, invalid } = utf8Tally(bytes)
  if (valid >= invalid)
    return { text: new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, ''), encoding: 'utf-8' }
  return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' }
}
