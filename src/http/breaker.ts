/**
 * A breaker in front of the database for the Data API: while the last attempt to reach it failed
 * (an error database-errors.ts calls unavailable) less than `openMs` ago, requests answer 503 at
 * once instead of queueing on the pool, where each would wait for a failing connection attempt
 * (0.5 s apart once they keep failing, so a burst larger than the pool took over a second). While
 * it is open, requests start one probe at a time (the shared `select 1` of db/pulse.ts): a probe
 * that answers closes it at once, one that fails keeps it open; with no traffic it closes when
 * `openMs` has passed and the next request tries the database itself. The healthy path costs one
 * comparison, no query.
 */
import { isDatabaseUnavailable, UNAVAILABLE_MESSAGE } from '../db/database-errors'
import { ApiError } from './errors'
import { RETRY_AFTER_UNAVAILABLE } from './error-plugin'

export class DatabaseBreaker {
  private failedAt: number | null = null
  private probing = false

  constructor(
    private readonly probe: () => Promise<unknown>,
    private readonly openMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Notes a failure seen anywhere (a request's query, a probe); other errors leave it as it is. */
  record(error: unknown): void {
    if (isDatabaseUnavailable(error)) this.failedAt = this.now()
  }

  get open(): boolean {
    return this.failedAt !== null && this.now() - this.failedAt < this.openMs
  }

  /** Returns when the request may use the database; throws the 503 while the breaker is open. */
  admit(): void {
    if (!this.open) return
    this.startProbe()
    throw new ApiError('unavailable', UNAVAILABLE_MESSAGE, { 'retry-after': RETRY_AFTER_UNAVAILABLE })
  }

  private startProbe(): void {
    if (this.probing) return
    this.probing = true
    this.probe()
      .then(
        () => {
          this.failedAt = null
        },
        (error: unknown) => this.record(error),
      )
      .finally(() => {
        this.probing = false
      })
  }
}
