/** Serves a fetch handler on Bun or Deno; the app itself only speaks web-standard Request/Response. */
import http from 'node:http'
import { rememberPeer } from './peer-address'

type FetchHandler = (request: Request) => Response | Promise<Response>
/**
 * `stop()` stops accepting connections and resolves once the open ones are done with (requests in
 * progress answered); `stop(true)` closes them at once.
 */
export type RunningServer = { port: number; stop: (closeActiveConnections?: boolean) => Promise<void> }
export type ServeOptions = {
  /** The most of a request head (request line and header fields) the HTTP parser reads before refusing on its own. */
  maxHeadBytes?: number
  /**
   * The answer when serving fails outside the app: the fetch handler threw, or a body failed as it
   * was sent (a file removed before its first read). Without it each runtime sends a page of its own.
   */
  onError?: (error: unknown) => Response
}

type DenoServeInfo = { remoteAddr: { hostname: string } }
declare const Deno:
  | {
      serve: (
        options: { port: number; onListen?: () => void; signal?: AbortSignal; onError?: (error: unknown) => Response },
        handler: (request: Request, info: DenoServeInfo) => Response | Promise<Response>,
      ) => { shutdown: () => Promise<void>; finished: Promise<void>; addr: { port: number } }
    }
  | undefined

/**
 * Seconds a connection may stay silent, a request still being answered included. Bun's default
 * (10 s) cut off operator runs that answer when done (POST /api/scrape, /api/analyze); 255 is Bun's
 * maximum.
 */
export const IDLE_TIMEOUT_SECONDS = 255
/** No endpoint takes more than a small JSON body; the app's caps (src/http/request-limits.ts) are at most this. */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024
/**
 * The runtime's own limit, a backstop well above the app's caps: between the two the app answers
 * (a 413 in the envelope); only beyond it does Bun refuse on its own, with a bare 413. Bun's default
 * would buffer 128 MB.
 */
export const RUNTIME_BODY_LIMIT_BYTES = 4 * 1024 * 1024

/**
 * Bun's parser reads `--max-http-header-size` bytes of a request head (16 KiB by default) and
 * answers a longer one with a bare 431 the app never sees; the same limit is node:http's
 * `maxHeaderSize`, which Bun lets a process set. Deno's parser has its own, larger limit.
 */
function setParserLimit(bytes: number | undefined): void {
  if (bytes === undefined) return
  try {
    ;(http as { maxHeaderSize: number }).maxHeaderSize = bytes
  } catch {
    // read-only on this runtime: its own limit stands
  }
}

export function serve(fetch: FetchHandler, port: number, options: ServeOptions = {}): RunningServer {
  const bun = (globalThis as { Bun?: typeof Bun }).Bun
  if (bun) {
    setParserLimit(options.maxHeadBytes)
    const server = bun.serve({
      port,
      idleTimeout: IDLE_TIMEOUT_SECONDS,
      maxRequestBodySize: RUNTIME_BODY_LIMIT_BYTES,
      ...(options.onError ? { error: options.onError } : {}),
      fetch: (request, self) => {
        rememberPeer(request, self.requestIP(request)?.address)
        return fetch(request)
      },
    })
    return {
      port: server.port ?? port,
      stop: async (force = false) => {
        await server.stop(force)
      },
    }
  }
  if (typeof Deno !== 'undefined') {
    // Aborting the signal closes every connection at once; shutdown() lets requests in progress finish.
    const abort = new AbortController()
    const server = Deno.serve(
      { port, onListen: () => {}, signal: abort.signal, onError: options.onError },
      (request, info) => {
        rememberPeer(request, info.remoteAddr.hostname)
        return fetch(request)
      },
    )
    return {
      port: server.addr.port,
      stop: async (force = false) => {
        if (force) abort.abort()
        else await server.shutdown()
        await server.finished
      },
    }
  }
  throw new Error('no supported runtime: run with bun (or deno)')
}
