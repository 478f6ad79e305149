/**
 * Progress and cancellation of one job run, kept in its job_runs row so that every instance sees
 * them: the run writes how far it is (done of total units) as it goes, and an operator's cancel
 * (POST /api/jobs/runs/{id}/cancel, in this or another instance) sets cancel_requested_at, which
 * the run reads back with the same statement at its units. A job that supports it (scrape: sources,
 * analyze: papers and articles, export: resources) asks `shouldStop()` before starting each unit and
 * stops there: the unit in progress finishes, nothing is left half-written, and the run is recorded
 * as cancelled with the counts of what it did.
 *
 * Progress is written at most every PROGRESS_WRITE_MS (a count that then stands still is written
 * that long after, and the last one when the run ends), not after every unit: the built-in analyzer
 * judges hundreds of papers a second. The scrape and the export read the cancel flag before every
 * source and resource (one short statement next to a feed fetch or a file); the analysis reads it
 * with its progress, so before a paper at most PROGRESS_WRITE_MS after the request (at once when a
 * paper takes longer, as with a model). A cancel asked for in the same process is seen at once (the
 * registry below).
 */
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { jobRuns } from '../db/schema'
import { errorMessage, log } from '../log'

/**
 * The jobs whose runs stop part-way when asked to: the others run to their end (they are short, or resume by design).
 */
export const CANCELLABLE_JOBS: ReadonlySet<string> = new Set(['scrape', 'analyze', 'export'])

export const PROGRESS_WRITE_MS = 250

/**
 * Thrown by a job that cannot return counts after stopping (the export: no manifest is written); recordRun records it
 * as cancelled.
 */
export class RunCancelledError extends Error {
  constructor(readonly counts: Record<string, number>) {
    super('the run was cancelled')
    this.name = 'RunCancelledError'
  }
}

export type CancelRead = 'now' | 'soon' | 'memory'

/**
 * What a job is handed to report progress and learn of a cancel; `NO_CONTROL` for runs outside job_runs (tests,
 * benchmarks).
 */
export interface RunControl {
  /** How many units the run has to do, and what they are ("sources", "items", "resources"). */
  begin(total: number, unit: string): Promise<void>
  /**
   * One more unit done (call it when the unit's writes are committed). `useDatabase` false: counted, written later
   * (a job inside a transaction on PGlite, whose one connection a write would wait for).
   */
  advance(by?: number, useDatabase?: boolean): Promise<void>
  /**
   * Before a unit: true when a cancel was asked for; the job then starts no further unit. `read`: 'now' reads the row
   * every time (units that take a while: a feed, an export resource); 'soon' (the default) at most every
   * PROGRESS_WRITE_MS (units of milliseconds: a paper judged by the built-in analyzer); 'memory' only sees a cancel
   * asked for in this process (a job inside a transaction on PGlite, the only process there is).
   */
  shouldStop(read?: CancelRead): Promise<boolean>
  /** Whether the job was told to stop (it then ended early). */
  readonly stopped: boolean
}

export const NO_CONTROL: RunControl = {
  begin: async () => {},
  advance: async () => {},
  shouldStop: async () => false,
  stopped: false,
}

/**
 * Runs of this process by id, so a cancel asked for here is seen at the next unit without waiting for the next read.
 */
const live = new WeakMap<Db, Map<number, RowControl>>()

class RowControl implements RunControl {
  private done = 0
  private written = 0 // progress_done as last written
  private lastSync = 0
  private cancelSeen = false
  private timer: ReturnType<typeof setTimeout> | null = null
  private inFlight: Promise<void> = Promise.resolve()
  stopped = false

  constructor(
    private readonly db: Db,
    readonly runId: number,
  ) {}

  async begin(total: number, unit: string): Promise<void> {
    this.lastSync = performance.now()
    try {
      await this.db
        .update(jobRuns)
        .set({ progressTotal: Math.max(0, Math.round(total)), progressUnit: unit, progressDone: this.done })
        .where(eq(jobRuns.id, this.runId))
    } catch (error) {
      log.warn({ runId: this.runId, error: errorMessage(error) }, 'cannot record the progress of a job run')
    }
  }

  async advance(by = 1, useDatabase = true): Promise<void> {
    this.done += by
    if (!useDatabase) return
    const since = performance.now() - this.lastSync
    if (since >= PROGRESS_WRITE_MS) return this.sync()
    // Written a moment later, so a count that then stands still (a long next unit) is not left behind.
    this.timer ??= setTimeout(() => {
      this.timer = null
      void this.sync()
    }, PROGRESS_WRITE_MS - since)
  }

  async shouldStop(read: CancelRead = 'soon'): Promise<boolean> {
    const due = read === 'now' || (read === 'soon' && performance.now() - this.lastSync >= PROGRESS_WRITE_MS)
    if (due && !this.cancelSeen) await this.sync()
    if (this.cancelSeen) this.stopped = true
    return this.cancelSeen
  }

  /** Writes the progress and reads the cancel flag, in one statement. */
  sync(): Promise<void> {
    this.lastSync = performance.now()
    const write = this.write(this.done)
    this.inFlight = write
    return write
  }

  private async write(done: number): Promise<void> {
    try {
      const [row] = await this.db
        .update(jobRuns)
        .set({ progressDone: done })
        .where(eq(jobRuns.id, this.runId))
        .returning({ cancel: jobRuns.cancelRequestedAt })
      this.written = done
      if (row?.cancel) this.cancelSeen = true
    } catch (error) {
      // Progress is for the operator's eyes: a write the database refuses must not cost the run its work.
      log.warn({ runId: this.runId, error: errorMessage(error) }, 'cannot record the progress of a job run')
    }
  }

  /** The last write, when the run ends. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await this.inFlight // a write still on its way lands before the last one
    if (this.written !== this.done) await this.sync()
  }

  /** A cancel asked for in this process. */
  cancelNow(): void {
    this.cancelSeen = true
  }
}

/** The control of a run just inserted; `release` when the run has ended. */
export function openControl(
  db: Db,
  runId: number,
): { control: RunControl & { flush: () => Promise<void> }; release: () => void } {
  let runs = live.get(db)
  if (!runs) live.set(db, (runs = new Map()))
  const control = new RowControl(db, runId)
  runs.set(runId, control)
  return { control, release: () => runs.delete(runId) }
}

export type CancelOutcome = 'requested' | 'unknown' | 'finished' | 'not-cancellable'

/**
 * Asks run `runId` to stop at its next unit, wherever it runs: sets cancel_requested_at (kept from
 * the first request) and, when the run is in this process, tells it at once. A run that already
 * ended is left as it was.
 */
export async function requestCancel(db: Db, runId: number, by: string): Promise<CancelOutcome> {
  const [run] = await db
    .select({ job: jobRuns.job, outcome: jobRuns.outcome })
    .from(jobRuns)
    .where(eq(jobRuns.id, runId))
  if (!run) return 'unknown'
  if (run.outcome !== 'running') return 'finished'
  if (!CANCELLABLE_JOBS.has(run.job)) return 'not-cancellable'
  const updated = await db
    .update(jobRuns)
    .set({
      cancelRequestedAt: sql`coalesce(${jobRuns.cancelRequestedAt}, now())`,
      cancelRequestedBy: sql`coalesce(${jobRuns.cancelRequestedBy}, ${by})`,
    })
    .where(and(eq(jobRuns.id, runId), eq(jobRuns.outcome, 'running')))
    .returning({ id: jobRuns.id })
  if (updated.length === 0) return 'finished' // it ended in between
  live.get(db)?.get(runId)?.cancelNow()
  return 'requested'
}

/**
 * Tells a run of this process to stop at its next unit, without a request recorded in its row (the graceful shutdown).
 */
export function cancelInProcess(db: Db, runId: number): void {
  live.get(db)?.get(runId)?.cancelNow()
}
