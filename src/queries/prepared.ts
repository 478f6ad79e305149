/**
 * Statements written once as SQL text with $n placeholders, for the hottest reads. The query
 * builder spent more CPU building a request's SQL text than everything else the service did for
 * it (issue 15); a fixed text costs nothing to build, and postgres.js keeps it prepared on each
 * connection (src/db/client.ts), so a request costs one Bind/Execute.
 *
 * Both drivers: postgres.js runs it with `unsafe` (prepared), or Bun's native client where the
 * database handle was given it (runPreparedStatementsWith), PGlite with `query`. Their type
 * parsers differ (PGlite turns dates and timestamps into Date objects, drizzle's postgres.js setup
 * leaves them as text), so these statements return dates and timestamps as `::text` and
 * everything else as text, numbers, booleans, arrays or json, which both parse alike.
 */
import type { Db } from '../db/client'

type Run = (text: string, parameters: unknown[]) => Promise<Record<string, unknown>[]>
type PostgresClient = { unsafe: (text: string, parameters: unknown[], options: { prepare: boolean }) => Promise<Record<string, unknown>[]> }
type PgliteClient = { query: (text: string, parameters: unknown[]) => Promise<{ rows: Record<string, unknown>[] }> }

const runners = new WeakMap<object, Run>()

/**
 * Runs `db`'s prepared statements through `run` instead of its own client: on Bun, the primary's
 * go through Bun's native client (src/platform/native-postgres.ts, wired in src/db/client.ts).
 */
export function runPreparedStatementsWith(db: Db, run: Run): void {
  runners.set(db, run)
}

function runnerOf(db: Db): Run {
  const known = runners.get(db)
  if (known) return known
  const client = (db as unknown as { $client?: PostgresClient | PgliteClient }).$client
  let run: Run
  if (client && 'unsafe' in client) run = (text, parameters) => client.unsafe(text, parameters, { prepare: true })
  else if (client && 'query' in client) run = async (text, parameters) => (await client.query(text, parameters)).rows
  else throw new Error('prepared statements need a postgres.js or PGlite database')
  runners.set(db, run)
  return run
}

/** `$?` placeholders numbered in order of appearance: $1, $2, ... */
export const numbered = (text: string) => {
  let n = 0
  return text.replace(/\$\?/g, () => `$${++n}`)
}

/** A statement fixed at load time, `$?` for each value; call it with the values in order. */
export function preparedStatement<Row>(text: string): (db: Db, parameters: unknown[]) => Promise<Row[]> {
  const fixed = numbered(text)
  return (db, parameters) => runnerOf(db)(fixed, parameters) as Promise<Row[]>
}

/**
 * A timestamp as a row holds it: a Date where the query builder read it, PostgreSQL's text of a
 * timestamptz where a statement above did (`2026-11-24 02:30:00.123456+00`).
 */
export type Timestamp = Date | string

const [DASH, SPACE, PLUS, ZERO, DOT] = [45, 32, 43, 48, 46]

/**
 * A timestamp as the API writes it, what `toISOString()` gives: `2026-11-24T02:30:00.123Z`. Text in a
 * UTC session's form is rewritten as it is (milliseconds truncated, as Date parsing does), without
 * a Date: JavaScriptCore's Date parse and toISOString cost about 1 µs a timestamp, 5% of a list
 * page's CPU. Any other text (another time zone, years beyond 9999) goes through Date as before.
 */
export function isoTimestamp(value: Timestamp): string {
  if (typeof value !== 'string') return value.toISOString()
  const n = value.length
  const utc = n >= 22 && value.charCodeAt(4) === DASH && value.charCodeAt(10) === SPACE && value.charCodeAt(n - 3) === PLUS
    && value.charCodeAt(n - 2) === ZERO && value.charCodeAt(n - 1) === ZERO
  if (utc && n === 22) return `${value.slice(0, 10)}T${value.slice(11, 19)}.000Z`
  if (utc && n <= 29 && value.charCodeAt(19) === DOT) return `${value.slice(0, 10)}T${value.slice(11, 19)}.${value.slice(20, Math.min(23, n - 3)).padEnd(3, '0')}Z`
  return new Date(value).toISOString()
}

/** A Timestamp as a Date, for what needs one (the site's feeds and pages). */
export const dateOf = (value: Timestamp): Date => (typeof value === 'string' ? new Date(isoTimestamp(value)) : value)

/**
 * The WHERE clause of a statement whose conditions depend on the request (which filters are
 * given): fragments with `$?` for their values, kept in the order they are added.
 */
export class Conditions {
  readonly fragments: string[] = []
  readonly values: unknown[] = []

  add(fragment: string, ...values: unknown[]): this {
    this.fragments.push(fragment)
    this.values.push(...values)
    return this
  }
}

/**
 * A family of statements, one per set of conditions: `template` gets the WHERE clause (fragments
 * joined by `and`, or `true`) and writes the statement, with `$?` for every value, in the order
 * `run` is given them (leading values, the conditions' values, trailing values). Each set of
 * conditions is turned into text once; afterwards a request costs a map look-up.
 */
export function statementFamily<Row>(template: (where: string) => string) {
  const texts = new Map<string, string>()
  const textFor = (fragments: string[]) => {
    const key = fragments.join('\u0000')
    let text = texts.get(key)
    if (text === undefined) {
      text = numbered(template(fragments.length ? fragments.join(' and ') : 'true'))
      texts.set(key, text)
    }
    return text
  }
  return (db: Db, leading: unknown[], where: Conditions, trailing: unknown[]): Promise<Row[]> =>
    runnerOf(db)(textFor(where.fragments), [...leading, ...where.values, ...trailing]) as Promise<Row[]>
}

/**
 * As statementFamily, for a statement with several WHERE clauses (a sample's conditions and the
 * filter's, say): `template` gets one clause per Conditions, values travel in the same order.
 */
export function statementFamilyOf<Row>(template: (...wheres: string[]) => string) {
  const texts = new Map<string, string>()
  return (db: Db, wheres: Conditions[], trailing: unknown[] = []): Promise<Row[]> => {
    const key = wheres.map((w) => w.fragments.join('\u0000')).join('\u0001')
    let text = texts.get(key)
    if (text === undefined) {
      text = numbered(template(...wheres.map((w) => (w.fragments.length ? w.fragments.join(' and ') : 'true'))))
      texts.set(key, text)
    }
    return runnerOf(db)(text, [...wheres.flatMap((w) => w.values), ...trailing]) as Promise<Row[]>
  }
}

/**
 * A statement whose text the caller chose from a family too large to fix at load time (one per
 * `fields=` selection, src/queries/paper-json.ts): prepared on each connection only when `prepare`,
 * so a caller that keeps a bounded set of texts prepared cannot be made to fill the server with
 * prepared statements. `text` is already numbered ($1, $2, ...).
 */
export function runStatement<Row>(db: Db, text: string, parameters: unknown[], prepare: boolean): Promise<Row[]> {
  if (prepare) return runnerOf(db)(text, parameters) as Promise<Row[]>
  const client = (db as unknown as { $client?: PostgresClient | PgliteClient }).$client
  if (client && 'unsafe' in client) return client.unsafe(text, parameters, { prepare: false }) as Promise<Row[]>
  return runnerOf(db)(text, parameters) as Promise<Row[]>
}
