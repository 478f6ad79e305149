/**
 * Configuration comes only from environment variables. `parseConfig` validates them all up front so
 * a bad value stops the service with one line that names the variable, instead of failing later.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseTrustProxy, type TrustProxy } from './platform/client-address'
import { LOG_LEVELS, type LogLevel } from './log'

export type Config = {
  port: number
  databaseUrl: string | null // null = embedded PGlite under dataDir
  /**
   * Streaming replicas of databaseUrl that serve the data API's reads (src/db/replicas.ts); empty = the primary serves
   * all.
   */
  databaseReplicas: { urls: string[]; maxLagMs: number }
  /**
   * Prepared statements through Bun's native PostgreSQL client where the runtime has one
   * (src/platform/native-postgres.ts).
   */
  databaseNativeClient: boolean
  /**
   * Connections each of the instance's pools may open (postgres.js's to the primary, the native client's, one per
   * replica); a running job holds one for its lock.
   */
  databasePoolSize: number
  dataDir: string
  // where the bulk export's NDJSON.gz files and manifest live (src/pipeline/exports); default <dataDir>/exports
  exportDir: string
  publicBaseUrl: string // no trailing slash; every absolute URL in responses starts with it
  appSecret: string | null // null until resolveAppSecret() fills it in development
  workers: boolean
  demoData: boolean // load the demo corpus into an empty database at start-up
  rateLimitStore: 'memory' | 'postgres' // postgres: several instances share exact counts
  adminUsername: string
  adminPassword: string | null // null = generate one when the first operator is created
  production: boolean
  meili: { host: string; apiKey: string | null; index: string } | null // null = PostgreSQL full text only
  europepmcBaseUrl: string // no trailing slash; tests point it at a local replay server
  europepmcQuery: string // topic part of the harvest query; windows and sources are added to it
  scrapeAllowPrivate: boolean // let feeds live on private, loopback or link-local addresses (tests, intranets)
  llm: LlmConfig | null // null = the built-in analyzer
  responseCacheMb: number // memory for cached Data API answers; 0 = none
  sessions: SessionLifetimes // admin interface cookie sessions
  trustProxy: TrustProxy // whose X-Forwarded-For to believe when taking the client address
  logLevel: LogLevel // pino's levels; "silent" logs nothing
  shutdownTimeoutMs: number // at SIGTERM/SIGINT, how long requests and job runs in progress may take to finish
  reviewConfidenceThreshold: number // GET /api/review queues judgements whose lowest confidence is below this (0..1)
  bodyTimeoutMs: number // a request body arrives whole this long after its head, or 408 (http/request-limits.ts)
  maxClientConnections: number // requests in progress at once per client address, or 429 (http/client-connections.ts)
}

/** An admin session ends after `idleMinutes` without a request, and `maxHours` after login whatever happens. */
export type SessionLifetimes = { idleMinutes: number; maxHours: number }

/**
 * An OpenAI-compatible chat-completions endpoint; set LLM_BASE_URL and LLM_MODEL to use one. `route` says which
 * papers go to it (src/pipeline/analysis/routing-analyzer.ts); left out, every paper does (LLM_ROUTE=all).
 */
export type LlmConfig = {
  baseUrl: string
  apiKey: string | null
  model: string
  concurrency: number
  timeoutMs: number
  route?: LlmRoute
}

/**
 * `all`: the model judges every paper. `uncertain`: only papers whose lowest built-in confidence is below `threshold`.
 */
export type LlmRoute = { mode: 'all' | 'uncertain'; threshold: number }

/**
 * LLM_ROUTE_THRESHOLD's default: the lowest threshold (of 0.30, 0.35 ... 0.95) at which the built-in analyzer's study
 * type and relevance band are both right on at least 90% of the held-out papers it keeps (lowest confidence at or
 * above the threshold), so the most papers stay away from the model without the kept ones falling below that
 * quality. From the curve `bun scripts/eval/route-threshold.ts` prints (2026-11-29, builtin-5 with the confidence
 * maps fitted on the tuning half and the calibration set: at 0.85 the built-in keeps 395 of 701 held-out papers, study
 * type 90.4%, band 93.4%; at 0.80 it keeps 419 but study type is 89.7%; figures in docs/benchmarks.md, "Issue 34: LLM
 * routing"). Rerun it and move this number when the confidences change.
 */
export const DEFAULT_LLM_ROUTE_THRESHOLD = 0.85

type Env = Record<string, string | undefined>

/** A configuration problem, with the variable at fault; its message is the one line we print. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`)
    this.name = 'ConfigError'
  }
}

/** Empty strings count as unset, as they do in most shells' `VAR= command`. */
function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim()
  return value ? value : undefined
}

function parsePort(value: string | undefined): number {
  if (value === undefined) return 3000
  const port = Number(value)
  if (!/^\d+$/.test(value) || port < 1 || port > 65535) {
    throw new ConfigError('PORT', `must be an integer from 1 to 65535 (got "${value}")`)
  }
  return port
}

/** `what` names the value within the variable (`entry 2 `) when the variable holds a list. */
function parseDatabaseUrl(value: string | undefined, name = 'DATABASE_URL', what = ''): string | null {
  if (value === undefined) return null
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(name, `${what}must be a URL like postgres://user@host:5432/dbname`)
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(name, `${what}must start with postgres:// or postgresql:// (got "${url.protocol}//")`)
  }
  if (!url.pathname || url.pathname === '/') {
    throw new ConfigError(name, `${what}must name a database, e.g. postgres://postgres@127.0.0.1:5432/geroscope`)
  }
  return value
}

/** Comma-separated replica URLs, each checked like DATABASE_URL; only beside a DATABASE_URL. */
function parseReplicas(env: Env, databaseUrl: string | null): Config['databaseReplicas'] {
  const list = read(env, 'DATABASE_REPLICA_URLS')
  const maxLagMs = parseBoundedInt(
    'DATABASE_REPLICA_MAX_LAG_MS',
    read(env, 'DATABASE_REPLICA_MAX_LAG_MS'),
    5000,
    100,
    3_600_000,
  )
  if (list === undefined) return { urls: [], maxLagMs }
  if (databaseUrl === null)
    throw new ConfigError(
      'DATABASE_REPLICA_URLS',
      'needs DATABASE_URL (replicas of the embedded database do not exist)',
    )
  const urls = list.split(',').map((part) => part.trim())
  urls.forEach((url, i) => {
    if (url === '')
      throw new ConfigError('DATABASE_REPLICA_URLS', `entry ${i + 1} is empty; separate URLs with single commas`)
    parseDatabaseUrl(url, 'DATABASE_REPLICA_URLS', `entry ${i + 1} `)
  })
  if (new Set(urls).size !== urls.length) throw new ConfigError('DATABASE_REPLICA_URLS', 'lists a URL twice')
  if (urls.includes(databaseUrl))
    throw new ConfigError('DATABASE_REPLICA_URLS', 'lists DATABASE_URL itself; list only its replicas')
  if (urls.length > 16) throw new ConfigError('DATABASE_REPLICA_URLS', `lists ${urls.length} URLs; at most 16`)
  return { urls, maxLagMs }
}

/** An absolute http(s) URL without a trailing slash; `example` shows the reader what is meant. */
function parseHttpUrl(name: string, value: string, example = ''): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL${example} (got "${value}")`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(name, `must use http or https (got "${url.protocol}")`)
  return url
}

const withoutTrailingSlash = (url: URL) => url.href.replace(/\/+$/, '')

function parseBaseUrl(value: string | undefined, port: number): string {
  if (value === undefined) return `http://localhost:${port}`
  const url = parseHttpUrl('PUBLIC_BASE_URL', value)
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError('PUBLIC_BASE_URL', 'must not contain credentials, a query or a fragment')
  }
  return withoutTrailingSlash(url)
}

function parseSwitch(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback
  if (value === 'on') return true
  if (value === 'off') return false
  throw new ConfigError(name, `must be "on" or "off" (got "${value}")`)
}

function parseRateLimitStore(value: string | undefined): 'memory' | 'postgres' {
  if (value === undefined || value === 'memory' || value === 'postgres') return value ?? 'memory'
  throw new ConfigError('RATE_LIMIT_STORE', `must be "memory" or "postgres" (got "${value}")`)
}

function parseUsername(value: string | undefined): string {
  if (value === undefined) return 'admin'
  if (!/^[A-Za-z0-9_.-]{3,64}$/.test(value)) {
    throw new ConfigError('ADMIN_USERNAME', 'must be 3 to 64 letters, digits, ".", "_" or "-"')
  }
  return value
}

function parsePassword(value: string | undefined): string | null {
  if (value === undefined) return null
  if (value.length < 10) throw new ConfigError('ADMIN_PASSWORD', 'must be at least 10 characters long')
  return value
}

function parseSecret(value: string | undefined, production: boolean): string | null {
  if (value === undefined) {
    if (production) throw new ConfigError('APP_SECRET', 'is required when NODE_ENV=production')
    return null
  }
  if (value.length < 32) throw new ConfigError('APP_SECRET', 'must be at least 32 characters long')
  return value
}

function parseMeili(host: string | undefined, apiKey: string | undefined, index: string | undefined): Config['meili'] {
  if (host === undefined) {
    if (apiKey !== undefined || index !== undefined)
      throw new ConfigError('MEILI_HOST', 'is required when MEILI_API_KEY or MEILI_INDEX is set')
    return null
  }
  const url = parseHttpUrl('MEILI_HOST', host)
  if (index !== undefined && !/^[A-Za-z0-9_-]{1,100}$/.test(index)) {
    throw new ConfigError('MEILI_INDEX', 'must be 1 to 100 letters, digits, "_" or "-"')
  }
  return { host: withoutTrailingSlash(url), apiKey: apiKey ?? null, index: index ?? 'papers' }
}

/** The topic half of the harvest query: aging biology, broad on purpose (the judge sorts out relevance). */
export const DEFAULT_EUROPEPMC_QUERY =
  '(aging OR ageing OR senescence OR senescent OR senolytic OR longevity OR lifespan ' +
  'OR healthspan OR geroscience OR gerontology OR "epigenetic clock" OR "biological age" OR "caloric restriction" ' +
  'OR "dietary restriction" OR rapamycin OR mTOR OR sirtuin OR "NAD+" OR inflammaging OR "partial reprogramming")'

function parseEuropePmcBaseUrl(value: string | undefined): string {
  if (value === undefined) return 'https://www.ebi.ac.uk/europepmc/webservices/rest'
  const url = parseHttpUrl('EUROPEPMC_BASE_URL', value)
  if (url.search || url.hash) throw new ConfigError('EUROPEPMC_BASE_URL', 'must not contain a query or a fragment')
  return withoutTrailingSlash(url)
}

function parseEuropePmcQuery(value: string | undefined): string {
  if (value === undefined) return DEFAULT_EUROPEPMC_QUERY
  if (value.length > 2000) throw new ConfigError('EUROPEPMC_QUERY', 'must be at most 2,000 characters long')
  return value
}

function parseBoundedInt(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${value}")`)
  return n
}

/** A decimal number from `min` to `max` (0.6, 1, 0.05; no exponent, no sign). */
function parseBoundedDecimal(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(value) || n < min || n > max)
    throw new ConfigError(name, `must be a number from ${min} to ${max} (got "${value}")`)
  return n
}

function parseLlmRoute(env: Env): LlmRoute {
  const mode = read(env, 'LLM_ROUTE') ?? 'all'
  if (mode !== 'all' && mode !== 'uncertain')
    throw new ConfigError('LLM_ROUTE', `must be "all" or "uncertain" (got "${mode}")`)
  const value = read(env, 'LLM_ROUTE_THRESHOLD')
  if (value === undefined) return { mode, threshold: DEFAULT_LLM_ROUTE_THRESHOLD }
  if (mode === 'all')
    throw new ConfigError(
      'LLM_ROUTE_THRESHOLD',
      'applies only with LLM_ROUTE=uncertain (with "all" every paper goes to the model)',
    )
  const threshold = Number(value)
  if (!/^0?\.\d+$/.test(value) || !(threshold > 0 && threshold < 1)) {
    throw new ConfigError(
      'LLM_ROUTE_THRESHOLD',
      `must be a number between 0 and 1, both excluded, such as ${DEFAULT_LLM_ROUTE_THRESHOLD} (got "${value}")`,
    )
  }
  return { mode, threshold }
}

function parseLlm(env: Env): LlmConfig | null {
  const base = read(env, 'LLM_BASE_URL')
  const model = read(env, 'LLM_MODEL')
  const apiKey = read(env, 'LLM_API_KEY') ?? null
  if (base === undefined) {
    if (model !== undefined) throw new ConfigError('LLM_BASE_URL', 'is required when LLM_MODEL is set')
    for (const name of ['LLM_ROUTE', 'LLM_ROUTE_THRESHOLD']) {
      if (read(env, name) !== undefined)
        throw new ConfigError(
          name,
          'needs LLM_BASE_URL and LLM_MODEL (without a model the built-in analyzer judges every paper)',
        )
    }
    return null
  }
  const url = parseHttpUrl('LLM_BASE_URL', base, ' such as https://api.openai.com/v1')
  if (model === undefined) throw new ConfigError('LLM_MODEL', 'is required when LLM_BASE_URL is set')
  return {
    baseUrl: withoutTrailingSlash(url),
    apiKey,
    model,
    concurrency: parseBoundedInt('LLM_CONCURRENCY', read(env, 'LLM_CONCURRENCY'), 4, 1, 64),
    timeoutMs: parseBoundedInt('LLM_TIMEOUT_MS', read(env, 'LLM_TIMEOUT_MS'), 60_000, 1000, 600_000),
    route: parseLlmRoute(env),
  }
}

function parseSessionLifetimes(env: Env): SessionLifetimes {
  const idleMinutes = parseBoundedInt('SESSION_IDLE_MINUTES', read(env, 'SESSION_IDLE_MINUTES'), 30, 1, 1440)
  const maxHours = parseBoundedInt('SESSION_MAX_HOURS', read(env, 'SESSION_MAX_HOURS'), 12, 1, 720)
  if (idleMinutes > maxHours * 60) {
    throw new ConfigError(
      'SESSION_IDLE_MINUTES',
      `must not exceed SESSION_MAX_HOURS (${idleMinutes} minutes > ${maxHours} hours)`,
    )
  }
  return { idleMinutes, maxHours }
}

function parseTrustProxyVariable(value: string | undefined): TrustProxy {
  try {
    return parseTrustProxy(value)
  } catch (error) {
    throw new ConfigError('TRUST_PROXY', (error as Error).message)
  }
}

function parseLogLevel(value: string | undefined, nodeEnv: string | undefined): LogLevel {
  if (value === undefined) return nodeEnv === 'test' ? 'warn' : 'info'
  if (!(LOG_LEVELS as readonly string[]).includes(value))
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')} (got "${value}")`)
  return value as LogLevel
}

/** Validates the environment; throws ConfigError on the first bad variable. */
export function parseConfig(env: Env = process.env): Config {
  const nodeEnv = read(env, 'NODE_ENV')
  if (nodeEnv !== undefined && !['production', 'development', 'test'].includes(nodeEnv)) {
    throw new ConfigError('NODE_ENV', `must be production, development or test (got "${nodeEnv}")`)
  }
  const production = nodeEnv === 'production'
  const port = parsePort(read(env, 'PORT'))
  const databaseUrl = parseDatabaseUrl(read(env, 'DATABASE_URL'))
  return {
    port,
    databaseUrl,
    databaseReplicas: parseReplicas(env, databaseUrl),
    databaseNativeClient: parseSwitch('DATABASE_NATIVE_CLIENT', read(env, 'DATABASE_NATIVE_CLIENT'), true),
    databasePoolSize: parseBoundedInt('DATABASE_POOL_SIZE', read(env, 'DATABASE_POOL_SIZE'), 10, 2, 100),
    dataDir: resolve(read(env, 'DATA_DIR') ?? './data'),
    exportDir: resolve(read(env, 'EXPORT_DIR') ?? join(read(env, 'DATA_DIR') ?? './data', 'exports')),
    publicBaseUrl: parseBaseUrl(read(env, 'PUBLIC_BASE_URL'), port),
    appSecret: parseSecret(read(env, 'APP_SECRET'), production),
    workers: parseSwitch('WORKERS', read(env, 'WORKERS'), true),
    // Demo data by default only where it cannot land in someone's real database.
    demoData: parseSwitch('DEMO_DATA', read(env, 'DEMO_DATA'), databaseUrl === null && !production),
    rateLimitStore: parseRateLimitStore(read(env, 'RATE_LIMIT_STORE')),
    adminUsername: parseUsername(read(env, 'ADMIN_USERNAME')),
    adminPassword: parsePassword(read(env, 'ADMIN_PASSWORD')),
    production,
    meili: parseMeili(read(env, 'MEILI_HOST'), read(env, 'MEILI_API_KEY'), read(env, 'MEILI_INDEX')),
    europepmcBaseUrl: parseEuropePmcBaseUrl(read(env, 'EUROPEPMC_BASE_URL')),
    europepmcQuery: parseEuropePmcQuery(read(env, 'EUROPEPMC_QUERY')),
    scrapeAllowPrivate: parseSwitch('SCRAPE_ALLOW_PRIVATE', read(env, 'SCRAPE_ALLOW_PRIVATE'), false),
    llm: parseLlm(env),
    responseCacheMb: parseBoundedInt('RESPONSE_CACHE_MB', read(env, 'RESPONSE_CACHE_MB'), 64, 0, 4096),
    sessions: parseSessionLifetimes(env),
    trustProxy: parseTrustProxyVariable(read(env, 'TRUST_PROXY')),
    logLevel: parseLogLevel(read(env, 'LOG_LEVEL'), nodeEnv),
    shutdownTimeoutMs: parseBoundedInt('SHUTDOWN_TIMEOUT_MS', read(env, 'SHUTDOWN_TIMEOUT_MS'), 25_000, 0, 600_000),
    reviewConfidenceThreshold: parseBoundedDecimal(
      'REVIEW_CONFIDENCE_THRESHOLD',
      read(env, 'REVIEW_CONFIDENCE_THRESHOLD'),
      0.6,
      0,
      1,
    ),
    bodyTimeoutMs: parseBoundedInt('BODY_TIMEOUT_MS', read(env, 'BODY_TIMEOUT_MS'), 30_000, 100, 600_000),
    maxClientConnections: parseBoundedInt(
      'MAX_CLIENT_CONNECTIONS',
      read(env, 'MAX_CLIENT_CONNECTIONS'),
      64,
      1,
      100_000,
    ),
  }
}

/**
 * In development an unset APP_SECRET is generated once and kept in the data dir, so cursors
 * signed before a restart stay valid after it.
 */
export function resolveAppSecret(config: Config): Config & { appSecret: string } {
  if (config.appSecret) return { ...config, appSecret: config.appSecret }
  const file = join(config.dataDir, 'app-secret')
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim()
    if (kept.length >= 32) return { ...config, appSecret: kept }
  }
  mkdirSync(config.dataDir, { recursive: true })
  const secret = randomBytes(32).toString('base64url')
  writeFileSync(file, secret + '\n', { mode: 0o600 })
  return { ...config, appSecret: secret }
}
