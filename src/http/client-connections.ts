/**
 * A cap on the requests one client address has in progress at once (MAX_CLIENT_CONNECTIONS), so a
 * client that opens connections and sends its bodies slowly, or never, cannot hold the server's
 * sockets and memory. HTTP/1.1 answers one request at a time on a connection, so this caps its
 * connections that are sending or waiting for an answer.
 *
 * Counting wraps the fetch handler the server calls (src/lifecycle/start.ts), where a request's end
 * is certain whatever answered it; requests the app hands itself in-process are not counted. A
 * request over the cap is only marked here: the app refuses it (request-limits.ts), so the 429 has
 * the envelope, the request id and CORS headers like every other answer.
 */
import type { Config } from '../config'
import { peerAddress } from '../platform/peer-address'
import { addressBucket, clientAddress } from '../platform/client-address'
import { ApiError } from './errors'

type FetchHandler = (request: Request) => Response | Promise<Response>

/** Seconds a refused client is told to wait: a slot frees as soon as one of its requests is answered. */
export const RETRY_AFTER_BUSY_CLIENT = '1'

const overCap = new WeakMap<Request, number>()

export class ClientConnections {
  private readonly open = new Map<string, number>()

  constructor(private readonly config: Pick<Config, 'maxClientConnections' | 'trustProxy'>) {}

  /** Requests in progress from the address (its /64 for IPv6), for tests and diagnostics. */
  inProgress(bucket: string): number {
    return this.open.get(bucket) ?? 0
  }

  /** The handler, counting each request of a socket from its arrival until its answer (headers) is ready. */
  track(fetch: FetchHandler): FetchHandler {
    return async (request) => {
      const peer = peerAddress(request)
      if (peer === null) return fetch(request)
      const bucket = addressBucket(clientAddress(peer, request.headers.get('x-forwarded-for'), this.config.trustProxy))
      const count = this.open.get(bucket) ?? 0
      if (count >= this.config.maxClientConnections) {
        overCap.set(request, count)
        return fetch(request)
      }
      this.open.set(bucket, count + 1)
      try {
        return await fetch(request)
      } finally {
        const left = (this.open.get(bucket) ?? 1) - 1
        if (left > 0) this.open.set(bucket, left)
        else this.open.delete(bucket)
      }
    }
  }
}

/** Throws the 429 for a request ClientConnections found over the cap; the connection is closed after it. */
export function refuseOverCap(request: Request): void {
  const count = overCap.get(request)
  if (count === undefined) return
  const message =
    `this client address already has ${count} requests in progress, the most allowed at once; ` +
    'retry when one is answered'
  throw new ApiError('rate_limited', message, { 'retry-after': RETRY_AFTER_BUSY_CLIENT, connection: 'close' })
}
