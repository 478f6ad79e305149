/**
 * The service's structured log: one JSON object a line on stdout, through pino. Requests (access
 * log), jobs (start and end with their counts), start-up and shutdown all go through `log`. The level
 * comes from LOG_LEVEL (validated in config.ts); under `bun test` (NODE_ENV=test) it defaults to
 * "warn", so a test run shows failures but not every request it makes.
 */
import pino from 'pino'

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** LOG_LEVEL if it is a level, else the default for NODE_ENV; config.ts refuses a bad LOG_LEVEL at start-up. */
export function defaultLogLevel(env: Record<string, string | undefined>): LogLevel {
  const given = env.LOG_LEVEL?.trim()
  if (given && (LOG_LEVELS as readonly string[]).includes(given)) return given as LogLevel
  return env.NODE_ENV === 'test' ? 'warn' : 'info'
}

export const log = pino({
  level: defaultLogLevel(process.env),
  base: undefined, // no pid and hostname on every line: the platform that collects the lines knows them
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) }, // "level":"info" rather than 30
})

/** The message of an error, for a log field (stacks only at debug level, where they are asked for). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
