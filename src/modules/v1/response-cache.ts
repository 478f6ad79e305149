/**
 * Serialized Data API answers kept in the serving process. A repeated request (the first page of
 * /papers, a popular paper) then costs a lookup instead of queries, row decoding and JSON: most of
 * a request's time on a two-core machine.
 *
 * Freshness: every change to the tables behind these answers empties the cache (a NOTIFY from
 * drizzle/0005, whichever process made the change), and an answer computed while a change landed
 * is not kept, since it may predate the change. `ttlMs` bounds the age of an answer should a
 * notification be lost; the contract already lets clients keep answers for 60 seconds.
 * Memory: least recently used answers go first once `maxBytes` are held. Answers are kept as
 * UTF-8 bytes, so a hit costs no encoding either. What an entry costs is counted whole: its bytes,
 * its key (a string, two bytes a character at worst) and the objects that hold them (ENTRY_OVERHEAD,
 * measured on Bun). Counting the bytes alone let a cache of small answers (empty pages, short
 * lists) take four times its budget. Expired answers are swept out on a timer, so an idle service
 * gives their memory back rather than holding the last busy minute's answers for ever.
 * Outages: a cached answer waits for `reachable`, so a lost database still gives 503 everywhere.
 */
import { collectGarbage } from '../../platform/memory'

export type ResponseCacheOptions = {
  maxBytes: number
  ttlMs: number
  now?: () => number
  /** Resolves when the database answers; a cached answer is served only after it did (see DatabasePulse). */
  reachable?: () => Promise<void>
}

type Entry = { body: Uint8Array; expires: number; cost: number }

const encoder = new TextEncoder()

/**
 * Bytes an entry costs beyond its body and key: the Map slot, the entry object, the Uint8Array and
 * its buffer's header. Measured on Bun 1.4 (scripts/soak-memory.ts and test/v1/response-cache.test.ts
 * fill a cache with empty pages and compare the heap with the budget).
 */
export const ENTRY_OVERHEAD = 160

/** What keeping `body` under `key` costs, as the budget counts it. */
export const entryCost = (key: string, body: Uint8Array) => body.byteLength + 2 * key.length + ENTRY_OVERHEAD

export class ResponseCache {
  private readonly entries = new Map<string, Entry>() // in least-recently-used order
  private readonly computing = new Map<string, Promise<Uint8Array>>()
  private held = 0
  private generation = 0
  private sweepTimer: ReturnType<typeof setTimeout> | null = null
  private released = 0 // bytes let go of since the last collection
  private used = false // asked since the last sweep
  private readonly now: () => number

  constructor(private readonly options: ResponseCacheOptions) {
    this.now = options.now ?? Date.now
  }

  /** The JSON for `key`, as UTF-8: cached, already being computed, or computed now by `compute`. */
  json(key: string, compute: () => Promise<unknown>): Promise<Uint8Array> {
    return this.bytes(key, async () => encodeJson(await compute()))
  }

  /** Any answer's bytes for `key` (the site's pages as HTML), kept and dropped like the JSON answers. */
  bytes(key: string, compute: () => Promise<Uint8Array>): Promise<Uint8Array> {
    this.used = true
    const entry = this.entries.get(key)
    if (entry) {
      this.entries.delete(key)
      if (entry.expires > this.now()) {
        this.entries.set(key, entry) // most recently used now
        const { reachable } = this.options
        return reachable ? reachable().then(() => entry.body) : Promise.resolve(entry.body)
      }
      this.held -= entry.cost
      this.released += entry.cost
    }
    // Concurrent requests for one key share one computation.
    const pending = this.computing.get(key)
    if (pending) return pending
    const generation = this.generation
    const promise = compute()
      .then((body) => {
        if (generation === this.generation) this.keep(key, body)
        return body
      })
      .finally(() => {
        if (this.computing.get(key) === promise) this.computing.delete(key)
      })
    this.computing.set(key, promise)
    return promise
  }

  /** Forgets everything: the data behind the answers changed. */
  invalidate(): void {
    this.generation++
    this.entries.clear()
    this.computing.clear()
    this.released += this.held
    this.held = 0
    this.scheduleSweep()
  }

  /**
   * Drops every expired answer; runs on its own timer while anything is held. Once the cache has
   * let go of an eighth of its budget and no request came since the last sweep, the runtime is
   * asked to collect: an idle service would not, and would keep the memory of answers long gone.
   */
  sweep(): void {
    const now = this.now()
    for (const [key, entry] of this.entries) {
      if (entry.expires > now) continue
      this.entries.delete(key)
      this.held -= entry.cost
      this.released += entry.cost
    }
    if (!this.used && this.released >= this.options.maxBytes / 8) {
      this.released = 0
      collectGarbage()
    }
    this.used = false
  }

  /** Bytes held (as the budget counts them), for tests and memory checks. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.held }
  }

  private keep(key: string, body: Uint8Array): void {
    const cost = entryCost(key, body)
    // One answer larger than a tenth of the cache would push out many others for little gain.
    if (cost > this.options.maxBytes / 10) return
    const replaced = this.entries.get(key)
    if (replaced) this.held -= replaced.cost
    this.entries.delete(key)
    this.entries.set(key, { body, expires: this.now() + this.options.ttlMs, cost })
    this.held += cost
    for (const [oldKey, old] of this.entries) {
      if (this.held <= this.options.maxBytes) break
      this.entries.delete(oldKey)
      this.held -= old.cost
      this.released += old.cost
    }
    this.scheduleSweep()
  }

  /**
   * A sweep one time-to-live from now, unless one is due already. The timer never keeps the
   * process alive, and none is left once the cache is empty and collected, so a dropped cache can
   * be collected too.
   */
  private scheduleSweep(): void {
    if (this.sweepTimer) return
    this.sweepTimer = setTimeout(() => {
      this.sweepTimer = null
      this.sweep()
      if (this.entries.size > 0 || this.released >= this.options.maxBytes / 8) this.scheduleSweep()
    }, this.options.ttlMs)
    this.sweepTimer.unref?.()
  }
}

/**
 * An answer already written as JSON (by PostgreSQL, src/resources/papers/paper-json.ts): sent and cached as
 * its text, never parsed and stringified again.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** An answer's JSON as UTF-8: a JsonText as it is, anything else through JSON.stringify. */
export const encodeJson = (answer: unknown): Uint8Array =>
  encoder.encode(answer instanceof JsonText ? answer.text : JSON.stringify(answer))

/**
 * A route's answer through the cache (or straight from `compute` when there is none), keyed by
 * path and query string. Errors are never cached: `compute` throws them before anything is kept.
 * The answer is typed as `compute`'s so route schemas still type-check the handler, but from the
 * cache it is that value's JSON as UTF-8 bytes, which Elysia sends as they are (so is a JsonText,
 * cache or not).
 */
export async function cachedJson<T>(
  cache: ResponseCache | null,
  request: Request,
  set: { headers: Record<string, unknown> },
  compute: () => Promise<T>,
): Promise<T> {
  if (!cache) {
    const answer = await compute()
    if (!(answer instanceof JsonText)) return answer
    set.headers['content-type'] = 'application/json'
    return encodeJson(answer) as unknown as T
  }
  const url = request.url
  const body = await cache.json(url.slice(url.indexOf('/', url.indexOf('//') + 2)), compute)
  set.headers['content-type'] = 'application/json'
  return body as unknown as T
}
