/**
 * `api_keys.last_used_at`, written in batches: the Data API's gate notes each key it lets through
 * (a map write, no I/O), and every few seconds one statement writes the latest time of every key
 * used since, never one UPDATE per request. Each instance keeps its own notes; a write never moves
 * a time backwards, so instances flushing in any order agree. Flushed on close too.
 */
import { sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { errorMessage, log } from '../log'

export type KeyUsageOptions = { flushEveryMs?: number } // 0 = write only on flush() and close()

const WRITE_BATCH = 5000 // keys per statement

export class KeyUsageRecorder {
  private pending = new Map<string, number>() // key id -> latest use, epoch ms
  private writing: Promise<void> = Promise.resolve()
  private timer: ReturnType<typeof setInterval> | null = null

  constructor(
    private readonly database: Database,
    options: KeyUsageOptions = {},
  ) {
    const every = options.flushEveryMs ?? 5000
    if (every > 0) {
      this.timer = setInterval(() => {
        this.flush().catch((error) =>
          log.error({ error: errorMessage(error) }, 'could not write api_keys.last_used_at'),
        )
      }, every)
      this.timer.unref?.() // never the reason the process stays up
    }
  }

  /** Notes that `keyId` was used at `at`. */
  touch(keyId: string, at: Date): void {
    const ms = at.getTime()
    if ((this.pending.get(keyId) ?? 0) < ms) this.pending.set(keyId, ms)
  }

  /** Writes what was noted since the last write. Writes run one after another, never overlapping. */
  flush(): Promise<void> {
    const next = this.writing.then(
      () => this.write(),
      () => this.write(),
    )
    this.writing = next.catch(() => {})
    return next
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.flush()
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return
    const batch = [...this.pending]
    this.pending = new Map()
    try {
      for (let i = 0; i < batch.length; i += WRITE_BATCH) {
        const ids = batch.slice(i, i + WRITE_BATCH).map(([id]) => id)
        const times = batch.slice(i, i + WRITE_BATCH).map(([, ms]) => new Date(ms).toISOString())
        // Two array parameters, whatever the batch size: one statement text, one plan.
        await this.database.rows(sql`
          update api_keys k set last_used_at = u.at
          from unnest(${`{${ids.join(',')}}`}::text[], ${`{${times.join(',')}}`}::timestamptz[]) as u(id, at)
          where k.id = u.id and (k.last_used_at is null or k.last_used_at < u.at)`)
      }
    } catch (error) {
      // Keep them for the next attempt, unless a later use was noted meanwhile.
      for (const [id, ms] of batch) this.touch(id, new Date(ms))
      throw error
    }
  }
}
