/**
 * The single-instance store: counters live in this process, and a take is a check-and-increment
 * with no await in between, so it is exact however many requests run at once.
 *
 * Crashes: the database holds, for each bucket's current minute and day, a count reserved ahead of
 * use. A request is granted only within what is already written there; when a window's
 * reservation runs out, the next block (a twentieth of the allowance, at least 1) is added to the
 * row first, with the request waiting. A process that dies, even by kill -9, has therefore never
 * granted more than the database says, and the next one starts from those counts: a crash loop
 * cannot hand out fresh allowance. What a crash costs a bucket is the unused part of its blocks,
 * at most a twentieth of its minute and of its day allowance. A clean close gives those back.
 *
 * Reservations are written as a group commit: one write at a time, and the buckets that need one
 * while it runs go together in the next. When a minute starts, every key in use needs its block at
 * once; written one statement and one commit per key, they queued for the database pool by the
 * thousand, and every request behind them waited.
 */
import { and, eq, or, sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { rateLimitCounters as counters } from '../db/schema'
import { preparedStatement } from '../queries/prepared'
import { decide, windowsAt, type Allowance, type RateDecision, type RateLimitStore } from './store'

/**
 * Adds to a bucket's counters, each created at 0 if new, and returns their totals. SQL text prepared
 * once: with many keys in use every minute starts with a write per key, and the query builder cost
 * more CPU per write than the write. Window starts travel as text: drizzle's postgres.js setup passes
 * timestamptz[] parameters through unserialised.
 */
const addToCounters = preparedStatement<{
  bucket: string
  window: string
  count: number
}>(
  `insert into rate_limit_counters as c (bucket, "window", window_start, count)
  select bucket, win, start::timestamptz, n from unnest($?::text[], $?::text[], $?::text[], $?::int[]) as ` +
    `given(bucket, win, start, n)
  on conflict (bucket, "window", window_start) do update set count = c.count + excluded.count
  returning c.bucket, c."window", c.count`,
)

/** How much of an allowance one write reserves: what a crash can cost a bucket, per window. */
export const RESERVATION_SHARE = 1 / 20

type Window = 'minute' | 'day'
type Counter = { start: number; count: number; reserved: number } // reserved: the count the database holds
/** A bucket waiting for its reservation: the counters it needs, as they were when it asked. */
type Wanted = { allowance: Allowance; minute: Counter; day: Counter | null; units: number }

const blockOf = (limit: number) => Math.max(1, Math.ceil(limit * RESERVATION_SHARE))

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly minutes = new Map<string, Counter>()
  private readonly days = new Map<string, Counter>()
  private readonly reserving = new Map<string, Promise<void>>() // by bucket: one write at a time
  private next: { wanted: Map<string, Wanted>; written: Promise<void> } | null = null // the next group
  private writing: Promise<void> = Promise.resolve() // the group being written
  private sweptMinute = 0
  /** Buckets reserved for and the statements that wrote them (for tests and diagnostics). */
  readonly writes = { buckets: 0, statements: 0 }

  private constructor(private readonly database: Database) {}

  /** Opens a store that starts from the counts the database holds for the current minute and day. */
  static async open(database: Database, now = new Date()): Promise<MemoryRateLimitStore> {
    const store = new MemoryRateLimitStore(database)
    const { minuteStart, dayStart } = windowsAt(now)
    const rows = await database.db
      .select({ bucket: counters.bucket, window: counters.window, count: counters.count })
      .from(counters)
      .where(
        or(
          and(eq(counters.window, 'day'), eq(counters.windowStart, new Date(dayStart))),
          and(eq(counters.window, 'minute'), eq(counters.windowStart, new Date(minuteStart))),
        ),
      )
    for (const row of rows) {
      const [map, start] = row.window === 'day' ? [store.days, dayStart] : [store.minutes, minuteStart]
      map.set(row.bucket, { start, count: row.count, reserved: row.count })
    }
    store.sweptMinute = minuteStart
    return store
  }

  async take(bucket: string, allowance: Allowance, now: Date, units = 1): Promise<RateDecision> {
    for (;;) {
      // Synchronous from here to the increment: no other take can run in between.
      const { minuteStart, dayStart } = windowsAt(now)
      if (minuteStart > this.sweptMinute) this.sweep(minuteStart, dayStart)
      const minute = current(this.minutes, bucket, minuteStart)
      // minute-only allowances keep none
      const day = allowance.perDay === undefined ? null : current(this.days, bucket, dayStart)
      const decision = decide(allowance, minute.count, day?.count ?? 0, now, units)
      if (!decision.allowed) return decision
      if (minute.count + units <= minute.reserved && (!day || day.count + units <= day.reserved)) {
        minute.count += units
        if (day) day.count += units
        return decision
      }
      await this.reserve(bucket, allowance, units) // then decide again: others may have taken meanwhile
    }
  }

  async giveBack(bucket: string, allowance: Allowance, now: Date, units: number): Promise<void> {
    // The reservation stays: what is given back is granted again from it, without a write.
    const { minuteStart, dayStart } = windowsAt(now)
    const minute = this.minutes.get(bucket)
    if (minute?.start === minuteStart) minute.count = Math.max(0, minute.count - units)
    const day = allowance.perDay === undefined ? undefined : this.days.get(bucket)
    if (day?.start === dayStart) day.count = Math.max(0, day.count - units)
  }

  /** Resolves once the reservations being written are in the database. */
  async flush(): Promise<void> {
    await Promise.allSettled(this.reserving.values())
  }

  /** Gives back what was reserved but not used, so a clean restart costs nobody anything. */
  async close(): Promise<void> {
    await this.flush()
    const unused: { bucket: string; window: Window; start: number; count: number; reserved: number }[] = []
    for (const [window, map] of [
      ['minute', this.minutes],
      ['day', this.days],
    ] as const) {
      for (const [bucket, c] of map) if (c.reserved > c.count) unused.push({ bucket, window, ...c })
    }
    for (let i = 0; i < unused.length; i += 500) {
      const part = unused.slice(i, i + 500)
      // Only where the row still holds our reservation: a count someone else wrote meanwhile stays.
      // Window starts travel as text: drizzle leaves timestamptz[] parameters unserialised on postgres.js.
      await this.database.rows(sql`update ${counters} set count = given.count
        from unnest(${sql.param(part.map((u) => u.bucket))}::text[], ${sql.param(part.map((u) => u.window))}::text[],
          ${sql.param(part.map((u) => new Date(u.start).toISOString()))}::text[],
          ${sql.param(part.map((u) => u.count))}::int[], ${sql.param(part.map((u) => u.reserved))}::int[])
          as given(bucket, win, start, count, reserved)
        where ${counters.bucket} = given.bucket and ${counters.window} = given.win
          and ${counters.windowStart} = given.start::timestamptz and ${counters.count} = given.reserved`)
    }
  }

  /** How many counters are held in memory; lets tests see that past windows are dropped. */
  heldCounters(): number {
    return this.minutes.size + this.days.size
  }

  /**
   * Writes the next block for whichever of the bucket's windows has run out, before anything is
   * granted from it. One write per bucket at a time; takes that need it meanwhile wait for it.
   */
  private reserve(bucket: string, allowance: Allowance, units: number): Promise<void> {
    const pending = this.reserving.get(bucket)
    if (pending) return pending
    const minute = this.minutes.get(bucket)!
    const day = allowance.perDay === undefined ? null : this.days.get(bucket)!
    const write = this.join(bucket, { allowance, minute, day, units }).finally(() => this.reserving.delete(bucket))
    this.reserving.set(bucket, write)
    return write
  }

  /** Adds the bucket to the next group, which is written as soon as the group before it is. */
  private join(bucket: string, wanted: Wanted): Promise<void> {
    if (!this.next) {
      const group = new Map<string, Wanted>()
      const written = this.writing
        .catch(() => {})
        .then(() => {
          if (this.next?.wanted === group) this.next = null
          return this.writeReservations(group)
        })
      this.next = { wanted: group, written }
      this.writing = written
    }
    this.next.wanted.set(bucket, wanted)
    return this.next.written
  }

  private async writeReservations(group: Map<string, Wanted>): Promise<void> {
    // Added to the rows, not set: a row may already hold counts this process never loaded. A block,
    // or more when a take of several units needs more than is left of the reservation.
    const delta = (c: Counter, limit: number, units: number) => {
      const short = c.count + units - c.reserved
      return short <= 0 ? 0 : Math.max(short, Math.min(blockOf(limit), limit - c.reserved))
    }
    const rows: { bucket: string; window: Window; counter: Counter; added: number }[] = []
    // Buckets in one order, in every instance, so that two instances' writes lock their rows in the same order.
    for (const bucket of [...group.keys()].sort()) {
      const { allowance, minute, day, units } = group.get(bucket)!
      if (day) rows.push({ bucket, window: 'day', counter: day, added: delta(day, allowance.perDay!, units) })
      rows.push({ bucket, window: 'minute', counter: minute, added: delta(minute, allowance.perMinute, units) })
    }
    this.writes.buckets += group.size
    this.writes.statements++
    const totals = await addToCounters(this.database.db, [
      rows.map((r) => r.bucket),
      rows.map((r) => r.window),
      rows.map((r) => new Date(r.counter.start).toISOString()),
      rows.map((r) => r.added),
    ])
    const written = new Map(rows.map((r) => [`${r.window}\u0000${r.bucket}`, r]))
    for (const total of totals) {
      const { counter, added } = written.get(`${total.window}\u0000${total.bucket}`)!
      // Of the row's total, ours to grant is what was left of our reservation plus what we just added;
      // everything else has been used, here or by a process before a restart.
      const ours = counter.reserved - counter.count + added
      counter.count = total.count - ours
      counter.reserved = total.count
    }
  }

  /** Drops counters of windows that have ended, once per minute, so memory tracks active buckets only. */
  private sweep(minuteStart: number, dayStart: number) {
    this.sweptMinute = minuteStart
    for (const [bucket, counter] of this.minutes) if (counter.start < minuteStart) this.minutes.delete(bucket)
    for (const [bucket, counter] of this.days) if (counter.start < dayStart) this.days.delete(bucket)
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
    counter = { start, count: 0, reserved: 0 }
    map.set(bucket, counter)
  }
  return counter
}
