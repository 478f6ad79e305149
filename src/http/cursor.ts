/**
 * Opaque, signed paging cursors. A cursor carries the endpoint it came from, a digest of the
 * filters it was made with, and the sort-key values of the last row served; it is HMAC-signed with
 * APP_SECRET, so a client cannot forge a position, and reusing it on another endpoint or with other
 * filters (limit aside) is a 400, as docs/contract-decisions.md asks.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { invalidParameter } from './errors'

export type CursorPosition = (string | number)[]

type Payload = { e: string; f: string; k: CursorPosition }

/** A stable digest of the filters: key order and list order do not matter. */
export function filterDigest(filters: Record<string, unknown>): string {
  const canonical = Object.keys(filters)
    .sort()
    .filter((k) => filters[k] !== undefined)
    .map((k) => [k, Array.isArray(filters[k]) ? [...(filters[k] as unknown[])].sort() : filters[k]])
  return createHash('sha256').update(JSON.stringify(canonical)).digest('base64url').slice(0, 16)
}

function sign(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url').slice(0, 22)
}

export function encodeCursor(
  secret: string,
  endpoint: string,
  filters: Record<string, unknown>,
  position: CursorPosition,
): string {
  const body = Buffer.from(
    JSON.stringify({ e: endpoint, f: filterDigest(filters), k: position } satisfies Payload),
  ).toString('base64url')
  return `${body}.${sign(secret, body)}`
}

/** The position inside a cursor, or a 400 naming `cursor` with why it was refused. */
export function decodeCursor(
  secret: string,
  endpoint: string,
  filters: Record<string, unknown>,
  cursor: string,
): CursorPosition {
  const [body, signature, extra] = cursor.split('.')
  if (!body || !signature || extra !== undefined || cursor.length > 1024)
    throw invalidParameter('cursor is not a cursor this API issued')
  const expected = Buffer.from(sign(secret, body))
  const given = Buffer.from(signature)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw invalidParameter('cursor is not a cursor this API issued (bad signature)')
  }
  let payload: Payload
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'))
  } catch {
    throw invalidParameter('cursor is not a cursor this API issued')
  }
  if (payload.e !== endpoint) throw invalidParameter('cursor belongs to another endpoint')
  if (payload.f !== filterDigest(filters)) {
    throw invalidParameter(
      'cursor was made with other filters; repeat the request with the same parameters (limit aside)',
    )
  }
  if (!Array.isArray(payload.k)) throw invalidParameter('cursor is not a cursor this API issued')
  return payload.k
}
