/**
 * The rate limiter's seam, shared by the Data API (per key or account) and the admin interface (per
 * signed-in user or client address). A store counts requests per bucket in UTC minute and UTC day
 * windows and says whether one more fits. Two stores implement it: in memory for a single instance
 * (the default) and in PostgreSQL for several instances that must share exact counts. Both decide
 * with `decide`, so they cannot disagree about limits, resets or Retry-After.
 */

/** Requests per UTC minute and per UTC day; without `perDay` only the minute is counted. */
export type Allowance = { perMinute: number; perDay?: number }

export type RateDecision = {
  allowed: boolean
  dayLimit: number // Infinity for an allowance without a daily window
  dayUsed: number // requests made today, this one included when allowed
  dayRemaining: number
  dayReset: number // Unix seconds of the next UTC midnight
  minuteLimit: number
  minuteRemaining: number
  minuteReset: number // Unix seconds of the next UTC minute
  retryAfter: number | null // seconds, only when refused
}

export interface RateLimitStore {
  /**
   * Counts `units` requests (default 1) in both windows if both have room for all of them, at once;
   * a refused take counts nothing in either.
   */
  take(bucket: string, allowance: Allowance, now: Date, units?: number): Promise<RateDecision>
  /**
   * Un-counts `units` taken earlier in the windows `now` falls in (never below zero): a request
   * refused after the gate counted it must use no allowance (docs/contract-decisions.md). A window that has ended
   * since is left as it is.
   */
  giveBack(bucket: string, allowance: Allowance, now: Date, units: number): Promise<void>
  /** Releases timers and saves what must survive; does not close the database. */
  close(): Promise<void>
}

export const MINUTE_MS = 60_000
export const DAY_MS = 86_400_000

/**
 * Starts (epoch ms) of the UTC minute and UTC day `now` falls in. Epoch time has no leap seconds, so flooring is exact.
 */
export function windowsAt(now: Date): { minuteStart: number; dayStart: number } {
  const ms = now.getTime()
  return { minuteStart: Math.floor(ms / MINUTE_MS) * MINUTE_MS, dayStart: Math.floor(ms / DAY_MS) * DAY_MS }
}

/**
 * The decision for `units` requests taken together (one, or the parts of a batch), given the
 * counts in their windows before them: all fit or none is taken. When the day has no room for
 * them, waiting for the next minute would not help, so Retry-After runs to midnight.
 */
export function decide(
  allowance: Allowance,
  minuteCount: number,
  dayCount: number,
  now: Date,
  units = 1,
): RateDecision {
  const { minuteStart, dayStart } = windowsAt(now)
  const dayResetMs = dayStart + DAY_MS
  const minuteResetMs = minuteStart + MINUTE_MS
  const perDay = allowance.perDay ?? Number.POSITIVE_INFINITY
  const dayFull = dayCount + units > perDay
  const allowed = !dayFull && minuteCount + units <= allowance.perMinute
  const taken = allowed ? units : 0
  const dayUsed = dayCount + taken
  const until = dayFull ? dayResetMs : minuteResetMs
  return {
    allowed,
    dayLimit: perDay,
    dayUsed,
    dayRemaining: Math.max(0, perDay - dayUsed),
    dayReset: dayResetMs / 1000,
    minuteLimit: allowance.perMinute,
    minuteRemaining: Math.max(0, allowance.perMinute - minuteCount - taken),
    minuteReset: minuteResetMs / 1000,
    retryAfter: allowed ? null : Math.max(1, Math.ceil((until - now.getTime()) / 1000)),
  }
}

/** `decision` as it reads once `units` the caller had taken are given back (giveBack). */
export function givenBack(decision: RateDecision, units: number): RateDecision {
  return {
    ...decision,
    dayUsed: Math.max(0, decision.dayUsed - units),
    dayRemaining: Math.min(decision.dayLimit, decision.dayRemaining + units),
    minuteRemaining: Math.min(decision.minuteLimit, decision.minuteRemaining + units),
  }
}

/** The X-RateLimit-* headers for a response, plus Retry-After when the request was refused. */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(d.dayLimit),
    'X-RateLimit-Remaining': String(d.dayRemaining),
    'X-RateLimit-Reset': String(d.dayReset),
    'X-RateLimit-Used': String(d.dayUsed),
    'X-RateLimit-Minute-Limit': String(d.minuteLimit),
    'X-RateLimit-Minute-Remaining': String(d.minuteRemaining),
    'X-RateLimit-Minute-Reset': String(d.minuteReset),
  }
  if (!d.allowed && d.retryAfter !== null) headers['Retry-After'] = String(Math.max(1, Math.ceil(d.retryAfter)))
  return headers
}
