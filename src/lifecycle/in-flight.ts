/**
 * Counts the requests being answered, so that shutdown can wait for them to finish (bounded)
 * whatever the runtime's server does with its connections.
 */
type FetchHandler = (request: Request) => Response | Promise<Response>

export class InFlight {
  private count = 0
  private waiters: (() => void)[] = []

  get size(): number {
    return this.count
  }

  /** The handler, counting each request from its arrival until its response (headers) is ready. */
  track(fetch: FetchHandler): FetchHandler {
    return async (request) => {
      this.count++
      try {
        return await fetch(request)
      } finally {
        if (--this.count === 0) for (const wake of this.waiters.splice(0)) wake()
      }
    }
  }

  /** Resolves true once no request is in flight, or false when `timeoutMs` passes first. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true)
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs)
      this.waiters.push(() => {
        clearTimeout(timer)
        resolve(true)
      })
    })
  }
}
