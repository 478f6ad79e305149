/**
 * Bun's built-in PostgreSQL client (Bun.SQL), behind a seam, for the statements written once as
 * SQL text (src/queries/prepared.ts). Its wire protocol and row decoding are native: for a list
 * page of 26 papers it spends about a third less CPU than postgres.js on the same prepared
 * statement, and the service 13–24% less per list request (docs/benchmarks.md).
 * Everything else (the query builder, transactions, COPY, LISTEN) stays on postgres.js. Elsewhere
 * than on Bun there is no such client, and postgres.js runs those statements too (as it does with
 * DATABASE_NATIVE_CLIENT=off).
 *
 * The rows must be what postgres.js under drizzle gives for the same statement, which holds for
 * what those statements return: text, int4 and float numbers, booleans, arrays of them, json,
 * and int8 and numeric as text; dates and timestamps are read as `::text` there (prepared.ts).
 * Its errors are told apart as postgres.js's are: a server error carries its SQLSTATE as `code`,
 * and a connection that fails or is lost carries one of the codes database-errors.ts calls
 * unavailable, so the breaker and the 503s work the same on either client.
 */
type Run = (text: string, parameters: unknown[]) => Promise<Record<string, unknown>[]>
type BunSql = {
  unsafe(text: string, parameters: unknown[]): Promise<Record<string, unknown>[]>
  (strings: TemplateStringsArray): Promise<Record<string, unknown>[]>
  close(options?: { timeout?: number }): Promise<void>
}
type BunSqlError = Error & { code?: string; errno?: string; severity?: string; detail?: string }

const bunSql = (globalThis as { Bun?: { SQL?: new (url: string, options: object) => BunSql } }).Bun?.SQL

/** Bun's connection failures, as the codes database-errors.ts already knows from postgres.js. */
const CONNECTION_CODES: Record<string, string> = {
  ERR_POSTGRES_CONNECTION_REFUSED: 'ECONNREFUSED',
  ERR_POSTGRES_CONNECTION_CLOSED: 'CONNECTION_CLOSED',
  // "Connection closed before the connection was established": a server, or a proxy with no server
  // behind it, that closed the connection during startup without a word.
  ERR_POSTGRES_CONNECTION_FAILED: 'CONNECTION_CLOSED',
  ERR_POSTGRES_CONNECTION_TIMEOUT: 'CONNECT_TIMEOUT',
  ERR_POSTGRES_IDLE_TIMEOUT: 'CONNECTION_CLOSED',
  ERR_POSTGRES_LIFETIME_TIMEOUT: 'CONNECTION_CLOSED',
}

/** The error as postgres.js would have shaped it: SQLSTATE or connection code in `code`, Bun's own as the cause. */
export function normalisedError(error: unknown): unknown {
  if (!(error instanceof Error)) return error
  const bunError = error as BunSqlError
  const code = bunError.code === 'ERR_POSTGRES_SERVER_ERROR' ? bunError.errno : CONNECTION_CODES[bunError.code ?? '']
  if (!code) return error
  return Object.assign(new Error(error.message, { cause: error }), {
    code,
    severity: bunError.severity,
    detail: bunError.detail,
  })
}

export type NativePostgres = { run: Run; close(): Promise<void> }

export type NativePostgresOptions = {
  max: number
  connectTimeoutSeconds: number
  /** Run-time settings every connection starts with (the postgres.js pool's, src/db/client.ts). */
  settings: Record<string, string>
  /** Sees every statement with its parameters, as postgres.js's debug hook does. */
  onQuery?: (text: string, parameters: unknown[]) => void
}

/**
 * `text` as a template with nothing in it, made once per text. Bun.SQL sends `unsafe` without values by
 * the simple protocol (such a text may hold several statements), so PostgreSQL parsed and planned
 * the first /claims page on every request: 1.09 ms of its CPU a page, 0.39 once prepared
 * (docs/benchmarks.md, eleventh session). A tagged call is prepared once per connection, as a
 * statement with values is; Bun takes a template object made by hand when its `raw` is not enumerable.
 */
const templates = new Map<string, TemplateStringsArray>()
/** The texts run here are fixed ones and the 64 fields= texts kept prepared; the bound is against a mistake. */
const MAX_TEMPLATES = 1000
function templateOf(text: string): TemplateStringsArray | null {
  let template = templates.get(text)
  if (!template && templates.size < MAX_TEMPLATES) {
    template = Object.freeze(
      Object.defineProperty([text], 'raw', { value: Object.freeze([text]) }),
    ) as unknown as TemplateStringsArray
    templates.set(text, template)
  }
  return template ?? null
}

/** A pool of up to `max` connections to `url` through Bun.SQL, or null where there is none. */
export function nativePostgres(
  url: string,
  { max, connectTimeoutSeconds, settings, onQuery }: NativePostgresOptions,
): NativePostgres | null {
  if (!bunSql) return null
  // Named after PGAPPNAME, as postgres.js's connections are, with "-native", so pg_stat_activity
  // shows both pools of one service and tells them apart.
  const applicationName = `${process.env.PGAPPNAME || 'geroscope'}-native`
  const sql = new bunSql(url, {
    max,
    connectionTimeout: connectTimeoutSeconds,
    connection: { ...settings, application_name: applicationName },
  })
  return {
    run: async (text, parameters) => {
      onQuery?.(text, parameters)
      try {
        const template = parameters.length === 0 ? templateOf(text) : null
        return await (template ? sql(template) : sql.unsafe(text, parameters))
      } catch (error) {
        throw normalisedError(error)
      }
    },
    close: () => sql.close({ timeout: 5 }),
  }
}
