/**
 * The graceful shutdown, in the order that loses nothing:
 * 1. /readyz turns 503, so a load balancer stops sending new requests here;
 * 2. the server stops accepting connections, and the requests in progress finish (bounded);
 * 3. scheduled jobs get no new runs, and a run in progress finishes (bounded by what is left of the
 *    same time limit; a run cut at the limit is one the next run completes, as after a crash); a run
 *    started from the console (POST with `wait: false`) stops at its next unit, recorded as cancelled;
 * 4. the batched writes go out: api_keys.last_used_at and the rate limiter's counts;
 * 5. the database closes.
 * The same time limit (SHUTDOWN_TIMEOUT_MS) bounds steps 2 and 3 together; past it, connections
 * still open are closed.
 */
import type { Database } from '../db/client'
import type { ScheduledJob } from '../jobs/scheduler'
import { stopStartedRuns } from '../jobs/run-job'
import { log } from '../log'
import type { Lifecycle } from '../modules/app-context'
import type { KeyUsageRecorder } from '../accounts/key-last-used'
import type { RunningServer } from '../platform/serve'
import type { RateLimitStore } from '../rate-limit/store'
import type { InFlight } from './in-flight'

export type ShutdownParts = {
  timeoutMs: number
  lifecycle: Lifecycle
  server: RunningServer
  inFlight: InFlight
  jobs: ScheduledJob[]
  stopSnapshots: () => void
  keyUsage: KeyUsageRecorder
  limits: RateLimitStore
  database: Database
}

/**
 * After the last request in progress answered, how long its connection may take to send the rest
 * of the body; idle keep-alive connections are then closed rather than waited for.
 */
const CLOSE_GRACE_MS = 2000

const within = <T>(work: Promise<T>, ms: number): Promise<T | 'timeout'> =>
  Promise.race([work, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), Math.max(0, ms)))])

export async function shutDown(reason: string, parts: ShutdownParts): Promise<void> {
  const started = performance.now()
  const left = () => parts.timeoutMs - (performance.now() - started)
  log.info({ reason, inFlight: parts.inFlight.size, timeoutMs: parts.timeoutMs }, `${reason}: stopping`)
  parts.lifecycle.draining = true
  for (const job of parts.jobs) job.stop()
  parts.stopSnapshots()

  const closing = parts.server.stop() // no new connections; resolves when the open ones are done
  const drained = await parts.inFlight.idle(left())
  if (!drained) log.warn({ inFlight: parts.inFlight.size }, 'requests still in progress at the shutdown time limit')
  if ((await within(closing, drained ? Math.min(Math.max(left(), 0), CLOSE_GRACE_MS) : 0)) === 'timeout')
    await parts.server.stop(true)

  // Runs an operator started from the console (answered at once, going on here) stop at their next unit.
  const settled = await within(
    Promise.all([...parts.jobs.map((job) => job.settled()), stopStartedRuns(parts.database)]),
    left(),
  )
  if (settled === 'timeout')
    log.warn('a job run was still in progress at the shutdown time limit; the next run takes it up')

  await parts.keyUsage.close()
  await parts.limits.close()
  await parts.database.close()
  log.info({ durationMs: Math.round(performance.now() - started) }, 'stopped')
}
