/**
 * One database handle over two drivers: PGlite (embedded, the default) and postgres.js (real
 * PostgreSQL, when DATABASE_URL is set). Everything above this file sees the same `Database`.
 */
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import type { SQL } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import { mkdirSync } from 'node:fs'
import postgres from 'postgres'
import { nativePostgres } from '../platform/native-postgres'
import { runGenericPlansWith, UNPREPARED } from './generic-plans'
import { ReplicaSet } from './replicas'
import * as schema from './schema'

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

export type Database = {
  driver: 'pglite' | 'postgres'
  /** The primary: every write, and every read that must see the latest write (keys, counts, sessions, jobs). */
  db: Db
  /**
   * For the data API's reads, which may be a moment behind: on a streaming replica when
   * DATABASE_REPLICA_URLS names fresh ones (replicas.ts), else the primary. Never write through it.
   */
  reader: Db
  /** The replicas behind `reader`, for health reports; null without any. */
  replicas: ReplicaSet | null
  /** Runs raw SQL and returns its rows, whatever the driver. */
  rows<T = Record<string, unknown>>(query: SQL): Promise<T[]>
  /** The postgres.js client, for COPY; null on PGlite. */
  pg: postgres.Sql | null
  /**
   * Calls `onNotify` for every NOTIFY on `channel`, and `onReconnect` when a lost listening
   * connection is back (notifications sent meanwhile are lost). Resolves once listening, to a
   * function that stops.
   */
  listen(channel: string, onNotify: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>
  close(): Promise<void>
}

/** Raw SQL rows from either driver: PGlite answers `{ rows }`, postgres.js an array. */
export async function executeRows<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] }
  return Array.isArray(result) ? result : result.rows
}

export type DatabaseOptions =
  /** onQuery: sees every statement postgres.js sends, with its parameters (benchmarks capture them for pgbench). */
  | {
      kind: 'postgres'
      url: string
      max?: number
      onQuery?: (text: string, parameters: unknown[]) => void
      replicas?: { urls: string[]; maxLagMs: number; probeMs?: number }
      /**
       * Prepared statements through Bun's native client where there is one (the default;
       * src/platform/native-postgres.ts).
       */
      nativeClient?: boolean
    }
  | { kind: 'pglite'; dataDir?: string } // no dataDir = in memory
  | { kind: 'pglite-instance'; client: PGlite }

/** The extensions the migrations create (search folds accents; substring filters use trigrams). */
const pgliteExtensions = { unaccent, pg_trgm }

/** A PGlite instance with the extensions the schema needs; no dataDir = in memory. */
export function createPglite(dataDir?: string): Promise<PGlite> {
  return PGlite.create({ dataDir, extensions: pgliteExtensions })
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') return openPostgres(options)
  let client: PGlite
  if (options.kind === 'pglite-instance') client = options.client
  else {
    if (options.dataDir) mkdirSync(options.dataDir, { recursive: true })
    client = await createPglite(options.dataDir)
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db
  return {
    driver: 'pglite',
    db,
    reader: db, // one process, one copy
    replicas: null,
    pg: null,
    rows: <T>(query: SQL) => executeRows<T>(db, query),
    listen: (channel, onNotify) => client.listen(channel, onNotify), // in-process: nothing to reconnect
    close: () => client.close(),
  }
}

/** What every pool of the service's connects with, postgres.js's and the native client's alike. */
const CONNECT_TIMEOUT_SECONDS = 5
// The service runs short queries only. JIT compilation kicks in on cost estimates alone and took
// 140 ms to compile a search statement (with a topic filter) that runs in 10 ms.
const SESSION_SETTINGS = { jit: 'off' }

function postgresClient(
  url: string,
  max: number,
  onQuery?: (text: string, parameters: unknown[]) => void,
): postgres.Sql {
  return postgres(url, {
    max,
    ...(onQuery && { debug: (_connection: number, text: string, parameters: unknown[]) => onQuery(text, parameters) }),
    onnotice: () => {}, // "relation already exists, skipping" and friends are not news
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    // Seconds before a connection that failed is tried again. postgres.js's default grows to 10-20 s,
    // and a request waits for it: in an outage its 503 would come that late, and so would recovery.
    // A capped half second keeps both prompt and is no storm for a server coming back.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 0.5),
    connection: SESSION_SETTINGS,
  })
}

async function openPostgres({
  url,
  max = 10,
  onQuery,
  replicas: replicaOptions,
  nativeClient = true,
}: Extract<DatabaseOptions, { kind: 'postgres' }>): Promise<Database> {
  const client = postgresClient(url, max, onQuery)
  const primary = preparingStatements(client)
  const db = drizzlePostgres(primary, { schema }) as unknown as Db
  // The primary's statements planned once (the Data API's hot reads: src/queries/prepared.ts) on
  // Bun's native client, whose connections keep one generic plan per statement: a second pool of up
  // to `max` connections. Reads routed to replicas stay on postgres.js, whose replica set chooses
  // the connection per query.
  const native = nativeClient
    ? nativePostgres(url, {
        max,
        connectTimeoutSeconds: CONNECT_TIMEOUT_SECONDS,
        settings: { ...SESSION_SETTINGS, plan_cache_mode: 'force_generic_plan' },
        onQuery,
      })
    : null
  if (native) runGenericPlansWith(db, native.run)
  let replicas: ReplicaSet | null = null
  let reader = db
  if (replicaOptions?.urls.length) {
    replicas = new ReplicaSet(primary, (replicaUrl, size) => preparingStatements(postgresClient(replicaUrl, size)), {
      ...replicaOptions,
      max,
    })
    await replicas.start() // a replica that is down now is used once a probe finds it well
    reader = drizzlePostgres(replicas.client(primary), { schema }) as unknown as Db
  }
  return {
    driver: 'postgres',
    db,
    reader,
    replicas,
    pg: client,
    rows: <T>(query: SQL) => executeRows<T>(db, query),
    listen: async (channel, onNotify, onReconnect) => {
      let connected = false
      // postgres.js listens on a connection of its own, re-established after a loss; `onlisten`
      // runs on every (re)connection, the first one included.
      const { unlisten } = await client.listen(
        channel,
        (payload) => onNotify(payload),
        () => {
          if (connected) onReconnect?.()
          connected = true
        },
      )
      return unlisten
    },
    close: async () => {
      await replicas?.close()
      await native?.close()
      await client.end({ timeout: 5 })
    },
  }
}

/**
 * How many distinct SQL texts are prepared. postgres.js keeps a prepared statement (its text and
 * column descriptions) on each connection for as long as the connection lives, and never drops one,
 * so each text costs memory on every connection, here and in the server's backends. Queries are
 * built from a few shapes (values travel as parameters, lists as one array parameter): a wide mix
 * of every endpoint makes about 60 (scripts/soak-memory.ts). Past this many, a new text runs
 * unprepared, whatever shapes clients find.
 */
export const MAX_PREPARED_TEXTS = 1000

/**
 * drizzle sends its builder's queries unprepared (`prepare: false` unless a query is given a name
 * with `.prepare()`), and postgres.js answers an unprepared query with parameters by a Describe
 * round trip before the Execute: two round trips, a parse and a plan per query. Asking for
 * prepared statements makes postgres.js keep one named statement per distinct SQL text on each
 * connection, so a repeated query costs one round trip and no parse. The first MAX_PREPARED_TEXTS
 * texts are prepared, later ones are not: the common shapes come first, and memory stays bounded
 * whatever shapes clients find.
 */
export function preparingStatements(client: postgres.Sql, maxTexts = MAX_PREPARED_TEXTS): postgres.Sql {
  const prepared = new Set<string>()
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === UNPREPARED)
        return (query: string, parameters?: postgres.ParameterOrJSON<never>[]) =>
          target.unsafe(query, parameters, { prepare: false })
      if (property !== 'unsafe') return Reflect.get(target, property, receiver)
      return (query: string, parameters?: postgres.ParameterOrJSON<never>[], options?: postgres.UnsafeQueryOptions) => {
        const prepare = prepared.has(query) || (prepared.size < maxTexts && prepared.add(query) !== undefined)
        return target.unsafe(query, parameters, { ...options, prepare })
      }
    },
  })
}
