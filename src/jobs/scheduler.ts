/**
 * The scheduler seam: Bun.cron on Bun (in-process, runs never overlap), croner elsewhere (Deno,
 * Node) with overrun protection. Jobs stay plain async functions that tests call directly; a
 * failing run is logged and the job waits for its next time.
 */
import { Cron } from 'croner'

export type ScheduledJob = { name: string; stop: () => void }

export function schedule(name: string, expression: string, job: () => Promise<unknown>): ScheduledJob {
  const run = async () => {
    try {
      await job()
    } catch (error) {
      console.error(`job ${name} failed:`, error instanceof Error ? error.message : error)
    }
  }
  const bun = (globalThis as { Bun?: typeof Bun }).Bun
  if (bun?.cron) {
    const handle = bun.cron(expression, run, { tz: 'UTC' }).unref()
    return { name, stop: () => void handle.stop() }
  }
  const cron = new Cron(expression, { timezone: 'UTC', protect: true, unref: true }, run)
  return { name, stop: () => cron.stop() }
}
