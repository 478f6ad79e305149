/**
 * The shared store: counts live in `rate_limit_counters`, so any number of instances see the same
 * ones. Each take is one transaction that locks the bucket's minute and day rows (always day first,
 * then minute, so two takes never deadlock) and increments both only when both have room for all
 * the units asked: row locks queue concurrent takes on a bucket, which keeps the counts exact.
 * Works on PGlite too.
 */
import { and, asc, eq, lt, or, sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { rateLimitCounters as counters } from '../db/schema'
import { DAY_MS, decide, windowsAt, type Allowance, type RateDecision, type RateLimitStore } from './store'

const HOUR_MS = 3_600_000

export class PostgresRateLimitStore implements RateLimitStore {
  constructor(private readonly database: Database) {}

  static async open(database: Database): Promise<PostgresRateLimitStore> {
    return new PostgresRateLimitStore(database)
  }

  async take(bucket: string, allowance: Allowance, now: Date, units = 1): Promise<RateDecision> {
    const { minute, day, daily, ours } = rowsOf(bucket, allowance, now)
    return this.database.db.transaction(async (tx) => {
      // Rows in the same order as the lock below; a concurrent insert of the same row waits for ours.
      await tx
        .insert(counters)
        .values([
          ...(daily ? [{ bucket, window: 'day', windowStart: day, count: 0 }] : []),
          { bucket, window: 'minute', windowStart: minute, count: 0 },
        ])
        .onConflictDoNothing()
      const rows = await tx
        .select({ window: counters.window, count: counters.count })
        .from(counters)
        .where(ours)
        .orderBy(asc(counters.window))
        .for('update')
      const count = (window: string) => rows.find((r) => r.window === window)?.count ?? 0
      const decision = decide(allowance, count('minute'), count('day'), now, units)
      if (decision.allowed)
        await tx
          .update(counters)
          .set({ count: sql`${counters.count} + ${units}` })
          .where(ours)
      return decision
    })
  }

  async giveBack(bucket: string, allowance: Allowance, now: Date, units: number): Promise<void> {
    const { ours } = rowsOf(bucket, allowance, now)
    await this.database.db.transaction(async (tx) => {
      // Locked in take's order first: one UPDATE of both rows could lock them the other way round and deadlock with a
      // take.
      await tx
        .select({ window: counters.window })
        .from(counters)
        .where(ours)
        .orderBy(asc(counters.window))
        .for('update')
      await tx
        .update(counters)
        .set({ count: sql`greatest(${counters.count} - ${units}, 0)` })
        .where(ours)
    })
  }

  /** Deletes minute windows older than an hour and day windows older than two days. */
  purgeExpired(now: Date): Promise<number> {
    return purgeExpiredCounters(this.database, now)
  }

  async close(): Promise<void> {} // the database belongs to the caller
}

/** The bucket's rows for the windows `now` falls in (the day's only for an allowance with one). */
function rowsOf(bucket: string, allowance: Allowance, now: Date) {
  const { minuteStart, dayStart } = windowsAt(now)
  const minute = new Date(minuteStart)
  const day = new Date(dayStart)
  const daily = allowance.perDay !== undefined
  const minuteRow = and(eq(counters.window, 'minute'), eq(counters.windowStart, minute))
  const ours = and(
    eq(counters.bucket, bucket),
    daily ? or(and(eq(counters.window, 'day'), eq(counters.windowStart, day)), minuteRow) : minuteRow,
  )
  return { minute, day, daily, ours }
}

/** The purge on its own, for a scheduled job; returns how many rows went. */
export async function purgeExpiredCounters(database: Database, now: Date): Promise<number> {
  const ms = now.getTime()
  const gone = await database.db
    .delete(counters)
    .where(
      or(
        and(eq(counters.window, 'minute'), lt(counters.windowStart, new Date(ms - HOUR_MS))),
        and(eq(counters.window, 'day'), lt(counters.windowStart, new Date(ms - 2 * DAY_MS))),
      ),
    )
    .returning({ bucket: counters.bucket })
  return gone.length
}
