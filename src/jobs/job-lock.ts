/**
 * Runs of one job never overlap, also across processes: on PostgreSQL a session advisory lock
 * (held on a reserved connection, released when the run ends or the process dies) guards each job
 * name, so a CLI `ingest europepmc` and the scheduled harvest exclude each other. PGlite lives in a
 * single process (the data dir is locked), so an in-process set is enough there.
 */
import type { Database, Db } from '../db/client'

export class JobBusyError extends Error {
  constructor(readonly job: string) {
    super(`job ${job} is already running (in this or another process); try again when it ends`)
    this.name = 'JobBusyError'
  }
}

const LOCK_CLASS = 0x6765 // first key of the two-key advisory lock: "ge", Geroscope's jobs
const heldInProcess = new WeakMap<Db, Set<string>>()

export async function withJobLock<T>(database: Database, job: string, work: () => Promise<T>): Promise<T> {
  let held = heldInProcess.get(database.db)
  if (!held) heldInProcess.set(database.db, (held = new Set()))
  if (held.has(job)) throw new JobBusyError(job)
  held.add(job)
  try {
    if (!database.pg) return await work()
    const connection = await database.pg.reserve()
    try {
      const [row] = await connection<
        { locked: boolean }[]
      >`select pg_try_advisory_lock(${LOCK_CLASS}, hashtext(${job})) as locked`
      if (!row.locked) throw new JobBusyError(job)
      try {
        return await work()
      } finally {
        await connection`select pg_advisory_unlock(${LOCK_CLASS}, hashtext(${job}))`.catch(() => {})
      }
    } finally {
      connection.release()
    }
  } finally {
    held.delete(job)
  }
}
