/**
 * The scheduler seam: Bun.cron on Bun (in-process, runs never overlap), croner elsewhere (Deno,
 * Node) with overrun protection. Jobs stay plain async functions that tests call directly; a
 * failing run is logged and the job waits for its next time. Each run is logged at its start and
 * end (with the counts the job returns), and a run in progress can be waited for at shutdown.
 */
import { Cron } from 'croner'
import { errorMessage, log } from '../log'
import { JobBusyError } from './job-lock'

export type ScheduledJob = {
  name: string
  /** No further runs; a run in progress goes on (wait for it with `settled`). */
  stop: () => void
  /** Resolves when no run of this job is in progress. */
  settled: () => Promise<void>
}

export function schedule(name: string, expression: string, job: () => Promise<unknown>): ScheduledJob {
  let running: Promise<void> | null = null
  let stopped = false
  const run = async () => {
    if (stopped || running) return
    const started = performance.now()
    running = (async () => {
      log.info({ job: name }, 'job started')
      try {
        const counts = await job()
        log.info({ job: name, counts, durationMs: Math.round(performance.now() - started) }, 'job finished')
      } catch (error) {
        if (error instanceof JobBusyError) log.info({ job: name }, 'job skipped: a run is in progress elsewhere')
        else
          log.error(
            { job: name, error: errorMessage(error), durationMs: Math.round(performance.now() - started) },
            'job failed',
          )
      }
    })()
    try {
      await running
    } finally {
      running = null
    }
  }
  const bun = (globalThis as { Bun?: typeof Bun }).Bun
  let halt: () => void
  if (bun?.cron) {
    const handle = bun.cron(expression, run, { tz: 'UTC' }).unref()
    halt = () => void handle.stop()
  } else {
    const cron = new Cron(expression, { timezone: 'UTC', protect: true, unref: true }, run)
    halt = () => cron.stop()
  }
  return {
    name,
    stop: () => {
      stopped = true
      halt()
    },
    settled: async () => {
      await running?.catch(() => {})
    },
  }
}
