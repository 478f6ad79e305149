// The two things src/db/client.ts hands to the prepared statements of src/queries/prepared.ts, kept apart so that the
// client does not import the queries: the symbol under which a client keeps its unprepared `unsafe`, and the runner
// of the statements marked `genericPlan`.
export type Run = (text: string, parameters: unknown[]) => Promise<Record<string, unknown>[]>

/**
 * Where a client (src/db/client.ts, preparingStatements) keeps an `unsafe` that sends a statement
 * unprepared whatever else it would do: an unnamed statement, which PostgreSQL plans for its values on
 * every run (customPlan).
 */
export const UNPREPARED = Symbol('unprepared')

export const genericRunners = new WeakMap<object, Run>()

/**
 * Runs `db`'s statements marked `genericPlan` through `run`, whose connections keep one generic plan
 * per statement (plan_cache_mode = force_generic_plan): on Bun, Bun's native client
 * (src/platform/native-postgres.ts, wired in src/db/client.ts).
 */
export function runGenericPlansWith(db: object, run: Run): void {
  genericRunners.set(db, run)
}
