/**
 * The socket peer address of each request, remembered by the server seam (serve.ts) as requests
 * arrive, so the app reads it without runtime-specific calls: Bun tells it through
 * `server.requestIP(request)`, Deno through the handler's `info.remoteAddr`. Requests handed to the
 * app in-process (tests call `app.handle`) have none.
 */
const peers = new WeakMap<Request, string>()

export function rememberPeer(request: Request, address: string | null | undefined): void {
  if (address) peers.set(request, address)
}

/** The address of the socket the request came in on, or null when it did not come over a socket. */
export function peerAddress(request: Request): string | null {
  return peers.get(request) ?? null
}
