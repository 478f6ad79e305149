/**
 * The single-instance store: counters live in this process, so a take is a synchronous
 * check-and-increment (no await in between) and exact however many requests run at once.
 * Minute counts may be lost on restart (they last a minute anyway); day counts may not, or a
 * restart would hand out a fresh daily allowance, so they are loaded at start and written back
 * every few seconds and on close.
 */
import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { rateLimitCounters as counters } from '../db/schema'
import { decide, windowsAt, type Allowance, type RateDecision, type RateLimitStore } from './store'

type Counter = { start: number; count: number }
type DayCount = { bucket: string; start: number; count: number }

export type MemoryStoreOptions = { flushEveryMs?: number } // 0 = write only on flush() and close()

const WRITE_BATCH = 1000 // rows per upsert, well under PostgreSQL's 65,535 parameters

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly minutes = new Map<string, Counter>()
  private readonly days = new Map<string, Counter>()
  /** Day counts changed since the last write; apart from `days` so the count of a day just ended is still written. */
  private readonly unsaved = new Map<string, DayCount>()
  private sweptMinute = 0
  private writing: Promise<void> = Promise.resolve()
  private timer: ReturnType<typeof setInterval> | null = null

  private constructor(private readonly database: Database) {}

  /** Opens a store that starts from today's day counts in `rate_limit_counters`. */
  static async open(database: Database, now = new Date(), options: MemoryStoreOptions = {}): Promise<MemoryRateLimitStore> {
    const store = new MemoryRateLimitStore(database)
    const { dayStart } = windowsAt(now)
    const rows = await database.db.select({ bucket: counters.bucket, count: counters.count })
      .from(counters)
      .where(and(eq(counters.window, 'day'), eq(counters.windowStart, new Date(dayStart))))
    for (const row of rows) store.days.set(row.bucket, { start: dayStart, count: row.count })
    const every = options.flushEveryMs ?? 5000
    if (every > 0) {
      store.timer = setInterval(() => {
        store.flush().catch((error) => console.error('Rate limiter: could not save day counts:', error))
      }, every)
      store.timer.unref?.() // never the reason the process stays up
    }
    return store
  }

  async take(bucket: string, allowance: Allowance, now: Date): Promise<RateDecision> {
    // Everything below is synchronous: no other take can run between the check and the increment.
    const { minuteStart, dayStart } = windowsAt(now)
    if (minuteStart > this.sweptMinute) this.sweep(minuteStart, dayStart)
    const minute = current(this.minutes, bucket, minuteStart)
    const day = allowance.perDay === undefined ? null : current(this.days, bucket, dayStart)
    const decision = decide(allowance, minute.count, day?.count ?? 0, now)
    if (decision.allowed) {
      minute.count++
      if (day) {
        day.count++
        this.unsaved.set(`${day.start} ${bucket}`, { bucket, start: day.start, count: day.count })
      }
    }
    return decision
  }

  /** Writes changed day counts now. Writes run one after another, never overlapping. */
  flush(): Promise<void> {
    const next = this.writing.then(() => this.write(), () => this.write())
    this.writing = next.catch(() => {}) // a failed write must not fail the next one
    return next
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.flush()
  }

  /** How many counters are held in memory; lets tests see that past windows are dropped. */
  heldCounters(): number {
    return this.minutes.size + this.days.size
  }

  /** Drops counters of windows that have ended, once per minute, so memory tracks active buckets only. */
  private sweep(minuteStart: number, dayStart: number) {
    this.sweptMinute = minuteStart
    for (const [bucket, counter] of this.minutes) if (counter.start < minuteStart) this.minutes.delete(bucket)
    for (const [bucket, counter] of this.days) if (counter.start < dayStart) this.days.delete(bucket)
  }

  /** Upserts keeping the greater count, so a write from an older snapshot never lowers a count. */
  private async write(): Promise<void> {
    if (this.unsaved.size === 0) return
    const batch = [...this.unsaved.values()]
    this.unsaved.clear()
    try {
      for (let i = 0; i < batch.length; i += WRITE_BATCH) {
        await this.database.db.insert(counters)
          .values(batch.slice(i, i + WRITE_BATCH).map((d) => ({
            bucket: d.bucket, window: 'day', windowStart: new Date(d.start), count: d.count,
          })))
          .onConflictDoUpdate({
            target: [counters.bucket, counters.window, counters.windowStart],
            set: { count: sql`greatest(${counters.count}, excluded.count)` },
          })
      }
    } catch (error) {
      // Keep them for the next attempt, unless a newer count for the same day arrived meanwhile.
      for (const d of batch) {
        const key = `${d.start} ${d.bucket}`
        if (!this.unsaved.has(key)) this.unsaved.set(key, d)
      }
      throw error
    }
  }
}

/**
 * The bucket's counter for the window starting at `start`, begun afresh when that window is newer.
 * A request stamped slightly earlier than one already counted in a newer window (it waited on
 * something after reading the clock) counts in the newer window rather than wiping it.
 */
function current(map: Map<string, Counter>, bucket: string, start: number): Counter {
  let counter = map.get(bucket)
  if (!counter || counter.start < start) {
    counter = { start, count: 0 }
    map.set(bucket, counter)
  }
  return counter
}
