/**
 * Statements written once as SQL text with $n placeholders, for the hottest reads. The query
 * builder spent more CPU building a request's SQL text than everything else the service did for
 * it; a fixed text costs nothing to build, and postgres.js keeps it prepared on each
 * connection (src/db/client.ts), so a request costs one Bind/Execute.
 *
 * Both drivers: postgres.js runs it with `unsafe` (prepared), PGlite with `query`, and Bun's native
 * client those marked `genericPlan` where the database handle was given it (runGenericPlansWith). Their type
 * parsers differ (PGlite turns dates and timestamps into Date objects, drizzle's postgres.js setup
 * leaves them as text), so these statements return dates and timestamps as `::text` and
 * everything else as text, numbers, booleans, arrays or json, which both parse alike.
 */
import type { Db } from '../db/client'
import { genericRunners, UNPREPARED, type Run } from '../db/generic-plans'

type PostgresClient = {
  unsafe: (text: string, parameters: unknown[], options: { prepare: boolean }) => Promise<Record<string, unknown>[]>
}
type PgliteClient = { query: (text: string, parameters: unknown[]) => Promise<{ rows: Record<string, unknown>[] }> }

const runners = new WeakMap<object, Run>()

function runnerOf(db: Db, { genericPlan = false, customPlan = false }: Planning = {}): Run {
  if (genericPlan) {
    const generic = genericRunners.get(db)
    if (generic) return generic
  }
  const client = (db as unknown as { $client?: PostgresClient | PgliteClient }).$client
  // Sent unnamed, a statement is planned for its values on every run; PGlite plans every query so.
  if (customPlan && client && 'unsafe' in client) {
    const unprepared = (
      client as unknown as {
        [UNPREPARED]?: (text: string, parameters: unknown[]) => Promise<Record<string, unknown>[]>
      }
    )[UNPREPARED]
    return unprepared ?? ((text, parameters) => client.unsafe(text, parameters, { prepare: false }))
  }
  const known = runners.get(db)
  if (known) return known
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

/**
 * How a statement is planned. PostgreSQL plans a prepared statement afresh on every run (a custom
 * plan) unless it estimates that a plan made without the values costs no more, and for the Data
 * API's pages it never did: a range condition's generic selectivity, or a LIMIT it cannot read,
 * looked dearer, although the plan was the same. Planning then cost as much PostgreSQL CPU as
 * running: 0.15-0.5 ms a page (docs/benchmarks.md). `genericPlan` statements are planned
 * once per connection instead. Only for statements whose best plan does not depend on their values
 * (a keyset walk of one index, a primary key look-up), each measured generic against custom, and
 * with every row limit written `limit $limit` (below): a LIMIT parameter is planned as 10% of the
 * rows, which turns a walk of 26 index entries into a sort of all of them.
 */
export type Planning = {
  genericPlan?: boolean
  /**
   * Planned for its values on every run (not prepared): for a statement whose best plan depends on them in a way
   * PostgreSQL only sees from the values themselves, where a generic plan, or the rule's switch to one, could read
   * a whole table.
   */
  customPlan?: boolean
}

/**
 * Row limits written as literals, so that a generic plan knows them: `limit $limit` takes its value
 * from the values in the same order as `$?`, and the statement's text says `limit N` for the
 * smallest N of LIMIT_STEPS at or above it (one text per step, not per value). All of a
 * statement's `$limit` values are its page size, and its rows come back cut to that many, so a
 * statement may use `$limit` only where a larger limit yields the same rows first: a top-level
 * limit after its ORDER BY, or a subquery's whose surplus rows a top-level `$limit` cuts.
 */
const LIMIT_STEPS = [2, 11, 26, 51, 101]

/**
 * The step a page size of `values` (one whole number, however many `$limit`s carry it) is written with, and the cut to
 * it.
 */
function limitStep(values: unknown[]): { step: number; cut: <Row>(rows: Row[]) => Row[] } {
  const limit = Number(values[0])
  if (!Number.isInteger(limit) || limit < 0 || values.some((v) => v !== values[0])) {
    throw new Error(`a statement's $limit values must be one whole number, not ${values.map(String).join(', ')}`)
  }
  const step = LIMIT_STEPS.find((s) => s >= limit) ?? limit
  return { step, cut: (rows) => (step > limit ? rows.slice(0, limit) : rows) }
}

type Compiled = { run: (runner: Run, values: unknown[]) => Promise<Record<string, unknown>[]> }

/** `text` with its `$?` numbered, and its `$limit`s written per step when it is run. */
function compile(text: string): Compiled {
  let n = 0
  let position = 0
  const limitAt: number[] = []
  const parts = text
    .replace(/\$\?|\$limit\b/g, (token) => {
      if (token === '$?') {
        position++
        return `$${++n}`
      }
      limitAt.push(position++)
      return '\u0000'
    })
    .split('\u0000')
  if (limitAt.length === 0) {
    const fixed = parts[0]
    return { run: (runner, values) => runner(fixed, values) }
  }
  const texts = new Map<number, string>()
  return {
    run: async (runner, values) => {
      const { step, cut } = limitStep(limitAt.map((i) => values[i]))
      let stepText = texts.get(step)
      if (stepText === undefined) texts.set(step, (stepText = parts.join(String(step))))
      return cut(
        await runner(
          stepText,
          values.filter((_, i) => !limitAt.includes(i)),
        ),
      )
    },
  }
}

/** A statement fixed at load time, `$?` for each value; call it with the values in order. */
export function preparedStatement<Row>(
  text: string,
  planning: Planning = {},
): (db: Db, parameters: unknown[]) => Promise<Row[]> {
  const statement = compile(text)
  return (db, parameters) => statement.run(runnerOf(db, planning), parameters) as Promise<Row[]>
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
  const utc =
    n >= 22 &&
    value.charCodeAt(4) === DASH &&
    value.charCodeAt(10) === SPACE &&
    value.charCodeAt(n - 3) === PLUS &&
    value.charCodeAt(n - 2) === ZERO &&
    value.charCodeAt(n - 1) === ZERO
  if (utc && n === 22) return `${value.slice(0, 10)}T${value.slice(11, 19)}.000Z`
  if (utc && n <= 29 && value.charCodeAt(19) === DOT)
    return `${value.slice(0, 10)}T${value.slice(11, 19)}.${value.slice(20, Math.min(23, n - 3)).padEnd(3, '0')}Z`
  return new Date(value).toISOString()
}

/** A Timestamp as a Date, for what needs one (the site's feeds and pages). */
export const dateOf = (value: Timestamp): Date => (typeof value === 'string' ? new Date(isoTimestamp(value)) : value)

/**
 * The WHERE clause of a statement whose conditions depend on the request (which filters are
 * given): fragments with `$?` for their values, kept in the order they are added.
 */
/** Fragments of a WHERE clause joined by `and`; `true` for none. */
export const whereText = (fragments: readonly string[]) => (fragments.length ? fragments.join(' and ') : 'true')

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
export function statementFamily<Row>(template: (where: string) => string, planning: Planning = {}) {
  const texts = new Map<string, Compiled>()
  const textFor = (fragments: string[]) => {
    const key = fragments.join('\u0000')
    let text = texts.get(key)
    if (text === undefined) {
      text = compile(template(whereText(fragments)))
      texts.set(key, text)
    }
    return text
  }
  return (db: Db, leading: unknown[], where: Conditions, trailing: unknown[]): Promise<Row[]> =>
    textFor(where.fragments).run(runnerOf(db, planning), [...leading, ...where.values, ...trailing]) as Promise<Row[]>
}

/**
 * As statementFamily, for a statement with several WHERE clauses (a sample's conditions and the
 * filter's, say): `template` gets one clause per Conditions, values travel in the same order, after
 * any `leading` values (those of `$?` written before the first clause).
 */
export function statementFamilyOf<Row>(template: (...wheres: string[]) => string, planning: Planning = {}) {
  const texts = new Map<string, Compiled>()
  return (db: Db, wheres: Conditions[], trailing: unknown[] = [], leading: unknown[] = []): Promise<Row[]> => {
    const key = wheres.map((w) => w.fragments.join('\u0000')).join('\u0001')
    let text = texts.get(key)
    if (text === undefined) {
      text = compile(template(...wheres.map((w) => whereText(w.fragments))))
      texts.set(key, text)
    }
    return text.run(runnerOf(db, planning), [...leading, ...wheres.flatMap((w) => w.values), ...trailing]) as Promise<
      Row[]
    >
  }
}

/**
 * A statement whose text the caller chose from a family too large to fix at load time (one per
 * `fields=` selection, src/resources/papers/paper-json.ts): prepared on each connection only when `prepare`,
 * so a caller that keeps a bounded set of texts prepared cannot be made to fill the server with
 * prepared statements. `text` is already numbered ($1, $2, ...); a `$limit` in it takes the last
 * value, written as its step and cut to it as in `compile`.
 */
export function runStatement<Row>(
  db: Db,
  text: string,
  parameters: unknown[],
  prepare: boolean,
  planning: Planning = {},
): Promise<Row[]> {
  if (text.includes('$limit')) {
    const { step, cut } = limitStep(parameters.slice(-1))
    return runStatement<Row>(
      db,
      text.replaceAll('$limit', String(step)),
      parameters.slice(0, -1),
      prepare,
      planning,
    ).then(cut)
  }
  if (prepare || planning.customPlan) return runnerOf(db, planning)(text, parameters) as Promise<Row[]>
  const client = (db as unknown as { $client?: PostgresClient | PgliteClient }).$client
  if (client && 'unsafe' in client) return client.unsafe(text, parameters, { prepare: false }) as Promise<Row[]>
  return runnerOf(db)(text, parameters) as Promise<Row[]>
}
