/**
 * The corpus numbers shared by /stats and /topics. They are aggregates over the whole corpus, too
 * costly to compute per request and never needed to the second (responses may be cached for 60 s
 * anyway), so they are computed at most once a minute: `get()` serves the cached numbers while they
 * are younger than maxAgeMs, and concurrent callers of a stale snapshot share one computation.
 */
import type { Db } from '../../../db/client'
import { computeCorpus, type Corpus } from './service'
import { errorMessage, log } from '../../../log'

export const SNAPSHOT_MAX_AGE_MS = 60_000

export class CorpusSnapshot {
  private cached: { corpus: Corpus; at: number } | null = null
  private inFlight: Promise<Corpus> | null = null

  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(), // injectable, so tests can move time
    private readonly maxAgeMs = SNAPSHOT_MAX_AGE_MS,
  ) {}

  /** The cached numbers if younger than maxAgeMs, else fresh ones. */
  get(): Promise<Corpus> {
    if (this.cached) {
      const age = this.now().getTime() - this.cached.at
      // A clock that went backwards (age < 0) says nothing about freshness: recompute.
      if (age >= 0 && age < this.maxAgeMs) return Promise.resolve(this.cached.corpus)
      // The minute's recomputation is under way (it takes seconds at a million papers): serve the
      // numbers it replaces rather than queue every request behind it.
      if (this.inFlight) return Promise.resolve(this.cached.corpus)
    }
    return this.refresh()
  }

  /** Recomputes now; a computation already under way is joined rather than doubled. */
  refresh(): Promise<Corpus> {
    if (this.inFlight) return this.inFlight
    const at = this.now()
    const run = computeCorpus(this.db, at)
      .then((corpus) => {
        this.cached = { corpus, at: at.getTime() }
        return corpus
      })
      .finally(() => {
        this.inFlight = null
      })
    this.inFlight = run
    return run
  }

  /**
   * Keeps the numbers warm so no request waits for them: recomputes every `everyMs` (a minute by
   * default). Returns the function that stops the timer; the timer never keeps the process alive.
   */
  startRefresh(everyMs = this.maxAgeMs): () => void {
    const timer = setInterval(() => {
      this.refresh().catch((error) => log.error({ error: errorMessage(error) }, 'corpus snapshot: refresh failed'))
    }, everyMs)
    timer.unref?.()
    return () => clearInterval(timer)
  }
}
