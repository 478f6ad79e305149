/**
 * Proof that the database answers now, shared by every request waiting at the same moment: at
 * most one `select 1` is in flight, and a request that arrives while one runs waits for the next,
 * so the answer it gets was given after it arrived. Cached answers wait for it so that an outage
 * still gives every endpoint its 503 (docs/contract-decisions.md) at once. The price is one round trip of latency
 * on a cached answer (a longer one when the event loop is busy), not a request's full queries.
 */
export class DatabasePulse {
  private current: Promise<void> | null = null
  private next: Promise<void> | null = null

  constructor(private readonly ping: () => Promise<unknown>) {}

  /** Resolves once the database answered a check begun after this call; rejects with its error. */
  check(): Promise<void> {
    if (!this.current) return this.start()
    this.next ??= this.current
      .catch(() => {})
      .then(() => {
        this.next = null
        return this.start()
      })
    return this.next
  }

  private start(): Promise<void> {
    const run: Promise<void> = this.ping().then(() => {})
    this.current = run
    run
      .catch(() => {})
      .finally(() => {
        if (this.current === run) this.current = null
      })
    return run
  }
}
