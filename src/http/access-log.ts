/**
 * The access log: one line per answered request with its request id, method, path (no query
 * string: queries are the caller's business), status, duration in milliseconds and, on the Data
 * API, the id of the key that was let through (request-notes.ts), never the key. It wraps the
 * fetch handler the server calls, so it sees every answer whatever produced it.
 */
import { log } from '../log'
import { notedKeyId } from './request-notes'

type FetchHandler = (request: Request) => Response | Promise<Response>

const MAX_LOGGED_PATH = 512

function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const path = start === -1 ? '/' : url.slice(start).split(/[?#]/)[0]
  return path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path
}

export function withAccessLog(fetch: FetchHandler, logger = log): FetchHandler {
  return async (request) => {
    const started = performance.now()
    try {
      const response = await fetch(request)
      if (logger.isLevelEnabled('info')) {
        logger.info(
          {
            requestId: response.headers.get('x-request-id'),
            method: request.method,
            path: pathOf(request.url),
            status: response.status,
            durationMs: Math.round((performance.now() - started) * 10) / 10,
            keyId: notedKeyId(request),
          },
          'request',
        )
      }
      return response
    } catch (error) {
      // The error plugin answers every failure; reaching here means the framework itself failed.
      logger.error(
        {
          method: request.method,
          path: pathOf(request.url),
          durationMs: Math.round(performance.now() - started),
          err: error,
        },
        'request failed',
      )
      throw error
    }
  }
}
