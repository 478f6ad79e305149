/**
 * Read replicas: the data API's reads go to PostgreSQL streaming replicas (DATABASE_REPLICA_URLS),
 * everything else (keys, counts, sessions, jobs, every write) stays on the primary. The routing is
 * per query at the client level, so query code only chooses its handle (`Database.reader`).
 *
 * A replica is used only while it is known fresh: every `probeMs` the primary's WAL position is
 * read, then each replica's replayed position. A replica has every commit made before the newest
 * probe whose position it has replayed, so its staleness is at most the time since that probe; past
 * `maxLagMs`, or when the replica does not answer or is not a standby, reads go to the primary until
 * a probe finds it fresh again. A query a replica fails for want of a connection (it stopped, it is
 * restarting) is run again on the primary at once, and that replica is left out until the next
 * good probe: a replica's failure costs a request nothing but a round trip. So does a query the
 * standby cancels for a conflict with its replay (40001), run again on the primary.
 */
import type postgres from 'postgres'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import { isDatabaseUnavailable } from './database-errors'

export type ReplicaOptions = { urls: string[]; maxLagMs: number; max: number; probeMs?: number }

export type ReplicaState = { url: string; usable: boolean; lagMs: number | null; reason: string | null }

type Replica = { url: string; client: postgres.Sql; usable: boolean; lagMs: number | null; reason: string | null }

/** A WAL position (`16/B374D848`) as one number, comparable. */
export function lsnValue(lsn: string): bigint {
  const [high, low] = lsn.split('/')
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`)
}

/** Host and port only: replica URLs may carry passwords, and states end up in logs. */
const safeName = (url: string) => {
  const u = new URL(url)
  return `${u.hostname}:${u.port || 5432}${u.pathname}`
}

export class ReplicaSet {
  private readonly replicas: Replica[]
  private readonly probes: { at: number; lsn: bigint }[] = [] // the primary's positions, newest last
  private next = 0
  private timer: ReturnType<typeof setInterval> | null = null
  private probing: Promise<void> | null = null

  constructor(
    private readonly primary: postgres.Sql,
    openClient: (url: string, max: number) => postgres.Sql,
    private readonly options: ReplicaOptions,
    private readonly log: (line: string) => void = (line) => console.warn(line),
  ) {
    this.replicas = options.urls.map((url) => {
      const client = openClient(url, options.max)
      drizzlePostgres(client) // gives the client drizzle's value parsers, as the primary's has
      return { url: safeName(url), client, usable: false, lagMs: null, reason: 'not probed yet' }
    })
  }

  /** Probes now and then every `probeMs`. */
  async start(): Promise<void> {
    await this.probe()
    this.timer = setInterval(() => void this.probe(), this.options.probeMs ?? 1000)
    this.timer.unref?.()
  }

  state(): ReplicaState[] {
    return this.replicas.map(({ url, usable, lagMs, reason }) => ({ url, usable, lagMs, reason }))
  }

  /** The next usable replica, round robin; null when none is. */
  pick(): Replica | null {
    for (let i = 0; i < this.replicas.length; i++) {
      const replica = this.replicas[this.next++ % this.replicas.length]
      if (replica.usable) return replica
    }
    return null
  }

  /** A replica that just failed a query for want of a connection: left out until a probe finds it well. */
  failed(replica: Replica, error: unknown): void {
    if (replica.usable)
      this.log(
        `replica ${replica.url} failed (${error instanceof Error ? error.message : String(error)}); reads go to the ` +
          `primary`,
      )
    replica.usable = false
    replica.reason = 'a query found it unreachable'
  }

  /** One round of probes; a round still running is joined, not doubled. */
  probe(): Promise<void> {
    this.probing ??= this.probeRound().finally(() => {
      this.probing = null
    })
    return this.probing
  }

  private async probeRound(): Promise<void> {
    const timeout = Math.max(2000, this.options.probeMs ?? 1000) // a busy replica is slow, not gone
    try {
      const [row] = await within(this.primary<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`, timeout)
      this.probes.push({ at: Date.now(), lsn: lsnValue(row.lsn) })
      const horizon = Date.now() - this.options.maxLagMs - timeout
      while (this.probes.length > 2 && this.probes[1].at < horizon) this.probes.shift()
    } catch {
      // The primary cannot tell where it is: judge the replicas by the positions already known.
    }
    await Promise.all(this.replicas.map((replica) => this.probeReplica(replica, timeout)))
  }

  private async probeReplica(replica: Replica, timeout: number): Promise<void> {
    let verdict: { usable: boolean; lagMs: number | null; reason: string | null }
    try {
      const [row] = await within(
        replica.client<{ standby: boolean; lsn: string | null }[]>`
        select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as lsn`,
        timeout,
      )
      if (!row.standby || row.lsn === null)
        verdict = { usable: false, lagMs: null, reason: 'not a standby (promoted, or not a replica)' }
      else {
        const replayed = lsnValue(row.lsn)
        const fresh = this.probes.findLast((p) => p.lsn <= replayed)
        const lagMs = fresh ? Date.now() - fresh.at : null
        verdict =
          lagMs !== null && lagMs <= this.options.maxLagMs
            ? { usable: true, lagMs, reason: null }
            : { usable: false, lagMs, reason: `lags more than ${this.options.maxLagMs} ms behind the primary` }
      }
    } catch (error) {
      verdict = {
        usable: false,
        lagMs: null,
        reason: `unreachable: ${error instanceof Error ? error.message : String(error)}`,
      }
    }
    if (verdict.usable !== replica.usable && replica.reason !== 'not probed yet') {
      this.log(
        verdict.usable
          ? `replica ${replica.url} serves reads again`
          : `replica ${replica.url} left out: ${verdict.reason}; reads go to the primary`,
      )
    }
    Object.assign(replica, verdict)
  }

  /**
   * A postgres.js-shaped client for drizzle whose queries run on a usable replica, or on the
   * primary when none is or the replica fails for want of a connection. Transactions (read-only
   * snapshots, e.g. /stats) run whole on one replica, and whole again on the primary after such a
   * failure: the reader is for reads only, so running one twice changes nothing.
   */
  client(primary: postgres.Sql): postgres.Sql {
    const route = async <T>(run: (client: postgres.Sql) => Promise<T>): Promise<T> => {
      const replica = this.pick()
      if (replica) {
        try {
          return await run(replica.client)
        } catch (error) {
          // A standby cancels a query whose rows its replay must remove (a recovery conflict,
          // 40001): the primary has no such conflict, and the replica stays in use.
          if (isRecoveryConflict(error)) return run(primary)
          if (!isDatabaseUnavailable(error)) throw error
          this.failed(replica, error)
        }
      }
      return run(primary)
    }
    return new Proxy(primary, {
      get: (target, property, receiver) => {
        if (property === 'unsafe') {
          return (
            query: string,
            parameters?: postgres.ParameterOrJSON<never>[],
            options?: postgres.UnsafeQueryOptions,
          ) => {
            // drizzle awaits the query itself, or `.values()` of it.
            const rows = () => route((client) => client.unsafe(query, parameters, options).then((r) => r))
            return {
              values: () => route((client) => client.unsafe(query, parameters, options).values()),
              then: (ok: never, fail: never) => rows().then(ok, fail),
            }
          }
        }
        if (property === 'begin')
          return (...args: unknown[]) =>
            route((client) => (client.begin as (...a: unknown[]) => Promise<unknown>)(...args))
        return Reflect.get(target, property, receiver)
      },
    })
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    await this.probing?.catch(() => {})
    await Promise.all(this.replicas.map((r) => r.client.end({ timeout: 5 })))
  }
}

const isRecoveryConflict = (error: unknown) => (error as { code?: unknown } | null)?.code === '40001'

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}
