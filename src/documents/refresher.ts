/**
 * Keeping stored documents fresh from a serving process: on every data-change notification (drizzle/0005,
 * whichever process wrote), and once at start, the stale documents are rebuilt a second later
 * (src/documents/papers.ts refreshPaperDocuments, then the claims' items: src/documents/claims.ts). One process at a time does it (the job lock, across
 * processes on PostgreSQL); a busy or failed round is retried a little later. Until a document is rebuilt
 * its paper is served from the rows, so this only decides how soon requests get the fast path.
 */
import type { Database } from '../db/client'
import { DATA_CHANGED, watchChanges } from '../db/changes'
import { JobBusyError, withJobLock } from '../jobs/job-lock'
import { log } from '../log'
import { refreshPaperDocuments } from './papers'
import { refreshClaimDocuments } from './claims'

export const DOCUMENTS_JOB = 'documents'

export type DocumentRefresher = { stop: () => Promise<void>; idle: () => Promise<void> }

export function startDocumentRefresher(
  database: Database,
  options: { delayMs?: number; retryMs?: number } = {},
): DocumentRefresher {
  const { delayMs = 1000, retryMs = 15_000 } = options
  let timer: ReturnType<typeof setTimeout> | null = null
  let running: Promise<void> | null = null
  let again = false
  let stopped = false

  const schedule = (ms: number) => {
    if (stopped || timer) return
    timer = setTimeout(() => {
      timer = null
      if (running) {
        again = true
        return
      }
      running = round().finally(() => {
        running = null
        if (again) {
          again = false
          schedule(delayMs)
        }
      })
    }, ms)
  }

  const round = async () => {
    try {
      const counts = await withJobLock(database, DOCUMENTS_JOB, async () => {
        const papers = await refreshPaperDocuments(database.db, { maxMs: 20_000, stopped: () => stopped })
        const claims = await refreshClaimDocuments(database.db, { maxMs: 10_000, stopped: () => stopped })
        return { written: papers.written + claims.written, batches: papers.batches + claims.batches }
      })
      if (counts.written > 0) log.debug({ written: counts.written }, 'stored documents refreshed')
      if (counts.batches > 0) again = true // more may be left, or have gone stale meanwhile
    } catch (error) {
      if (stopped) return
      if (!(error instanceof JobBusyError))
        log.warn({ error: (error as Error).message }, 'cannot refresh stored documents; trying again later')
      schedule(retryMs)
    }
  }

  void watchChanges(database, DATA_CHANGED, () => schedule(delayMs))
  schedule(0)
  return {
    /**
     * No round starts after this; the one running ends after its batch (the shutdown closes the database after its
     * drain).
     */
    stop: async () => {
      stopped = true
      if (timer) clearTimeout(timer)
      timer = null
      await running
    },
    idle: async () => {
      while (running || timer) await (running ?? new Promise((resolve) => setTimeout(resolve, 10)))
    },
  }
}
