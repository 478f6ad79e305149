/**
 * What a request turned out to be, noted by the handlers for the access log (access-log.ts): the
 * API key id that was let through (never the key itself). Kept beside the request, as the peer
 * address is, so the log needs no framework hook and sees every answer, errors included.
 */
const keyIds = new WeakMap<Request, string>()

export function noteKeyId(request: Request, keyId: string): void {
  keyIds.set(request, keyId)
}

export function notedKeyId(request: Request): string | null {
  return keyIds.get(request) ?? null
}
