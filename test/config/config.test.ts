import { describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError, parseConfig, resolveAppSecret } from '../../src/config'

const fail = (env: Record<string, string>) => {
  try {
    parseConfig(env)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return error as ConfigError
  }
  throw new Error('expected a ConfigError')
}

describe('parseConfig', () => {
  test('gives the documented defaults', () => {
    const config = parseConfig({})
    expect(config.port).toBe(3000)
    expect(config.databaseUrl).toBeNull()
    expect(config.dataDir).toBe(join(process.cwd(), 'data'))
    expect(config.publicBaseUrl).toBe('http://localhost:3000')
    expect(config.appSecret).toBeNull()
    expect(config.workers).toBe(true)
    expect(config.demoData).toBe(true)
    expect(config.adminUsername).toBe('admin')
    expect(config.adminPassword).toBeNull()
    expect(config.responseCacheMb).toBe(64)
    expect(config.bodyTimeoutMs).toBe(30_000)
    expect(config.maxClientConnections).toBe(64)
  })

  test('LOG_LEVEL: info by default, warn under tests (quiet runs), any pino level when set', () => {
    expect(parseConfig({}).logLevel).toBe('info')
    expect(parseConfig({ NODE_ENV: 'test' }).logLevel).toBe('warn')
    expect(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'debug' }).logLevel).toBe('debug')
    expect(parseConfig({ LOG_LEVEL: 'silent' }).logLevel).toBe('silent')
  })

  test('REVIEW_CONFIDENCE_THRESHOLD: 0.6 by default, any decimal from 0 to 1', () => {
    expect(parseConfig({}).reviewConfidenceThreshold).toBe(0.6)
    expect(parseConfig({ REVIEW_CONFIDENCE_THRESHOLD: '0.75' }).reviewConfidenceThreshold).toBe(0.75)
    expect(parseConfig({ REVIEW_CONFIDENCE_THRESHOLD: '1' }).reviewConfidenceThreshold).toBe(1)
    expect(parseConfig({ REVIEW_CONFIDENCE_THRESHOLD: '.5' }).reviewConfidenceThreshold).toBe(0.5)
  })

  test('DATABASE_POOL_SIZE: 10 connections a pool by default, any number from 2 to 100', () => {
    expect(parseConfig({}).databasePoolSize).toBe(10)
    expect(parseConfig({ DATABASE_POOL_SIZE: '4' }).databasePoolSize).toBe(4)
  })

  test('RESPONSE_CACHE_MB=0 turns the response cache off', () => {
    expect(parseConfig({ RESPONSE_CACHE_MB: '0' }).responseCacheMb).toBe(0)
  })

  test('builds the default base URL from PORT and strips a trailing slash from a given one', () => {
    expect(parseConfig({ PORT: '8080' }).publicBaseUrl).toBe('http://localhost:8080')
    expect(parseConfig({ PUBLIC_BASE_URL: 'https://geroscope.example/' }).publicBaseUrl).toBe(
      'https://geroscope.example',
    )
    expect(parseConfig({ PUBLIC_BASE_URL: 'https://example.org/geroscope/' }).publicBaseUrl).toBe(
      'https://example.org/geroscope',
    )
  })

  test('treats empty values as unset', () => {
    expect(parseConfig({ PORT: '', DATABASE_URL: ' ' }).port).toBe(3000)
  })

  test('uses Meilisearch only when MEILI_HOST is set', () => {
    expect(parseConfig({}).meili).toBeNull()
    expect(parseConfig({ MEILI_HOST: 'http://127.0.0.1:7700/', MEILI_API_KEY: 'k' }).meili).toEqual({
      host: 'http://127.0.0.1:7700',
      apiKey: 'k',
      index: 'papers',
    })
  })

  test('reads replicas of DATABASE_URL from a comma-separated list, with a lag bound', () => {
    expect(parseConfig({}).databaseReplicas).toEqual({ urls: [], maxLagMs: 5000 })
    expect(
      parseConfig({
        DATABASE_URL: 'postgres://p:5432/g',
        DATABASE_REPLICA_URLS: ' postgres://r1:5432/g , postgresql://r2:6432/g',
        DATABASE_REPLICA_MAX_LAG_MS: '2000',
      }).databaseReplicas,
    ).toEqual({ urls: ['postgres://r1:5432/g', 'postgresql://r2:6432/g'], maxLagMs: 2000 })
  })

  test('turns demo data off by default on PostgreSQL and in production', () => {
    expect(parseConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/geroscope' }).demoData).toBe(false)
    expect(parseConfig({ NODE_ENV: 'production', APP_SECRET: 'x'.repeat(32) }).demoData).toBe(false)
    expect(parseConfig({ DEMO_DATA: 'off' }).demoData).toBe(false)
  })

  test.each([
    ['PORT', { PORT: 'abc' }, 'PORT must be an integer from 1 to 65535 (got "abc")'],
    ['PORT', { PORT: '70000' }, 'PORT must be an integer'],
    ['PORT', { PORT: '3000.5' }, 'PORT must be an integer'],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://root@localhost/db' }, 'DATABASE_URL must start with postgres://'],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }, 'DATABASE_URL must be a URL'],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432' }, 'DATABASE_URL must name a database'],
    [
      'DATABASE_REPLICA_URLS',
      { DATABASE_REPLICA_URLS: 'postgres://r1:5432/g' },
      'DATABASE_REPLICA_URLS needs DATABASE_URL',
    ],
    [
      'DATABASE_REPLICA_URLS',
      { DATABASE_URL: 'postgres://p:5432/g', DATABASE_REPLICA_URLS: 'postgres://r1:5432/g,,postgres://r2:5432/g' },
      'DATABASE_REPLICA_URLS entry 2 is empty',
    ],
    [
      'DATABASE_REPLICA_URLS',
      { DATABASE_URL: 'postgres://p:5432/g', DATABASE_REPLICA_URLS: 'postgres://r1:5432/g, mysql://r2/g' },
      'DATABASE_REPLICA_URLS entry 2 must start with postgres://',
    ],
    [
      'DATABASE_REPLICA_URLS',
      { DATABASE_URL: 'postgres://p:5432/g', DATABASE_REPLICA_URLS: 'postgres://r1:5432' },
      'DATABASE_REPLICA_URLS entry 1 must name a database',
    ],
    [
      'DATABASE_REPLICA_URLS',
      { DATABASE_URL: 'postgres://p:5432/g', DATABASE_REPLICA_URLS: 'postgres://r1:5432/g,postgres://r1:5432/g' },
      'DATABASE_REPLICA_URLS lists a URL twice',
    ],
    [
      'DATABASE_REPLICA_URLS',
      { DATABASE_URL: 'postgres://p:5432/g', DATABASE_REPLICA_URLS: 'postgres://p:5432/g' },
      'DATABASE_REPLICA_URLS lists DATABASE_URL itself',
    ],
    [
      'DATABASE_REPLICA_MAX_LAG_MS',
      { DATABASE_REPLICA_MAX_LAG_MS: '50' },
      'DATABASE_REPLICA_MAX_LAG_MS must be an integer from 100 to 3600000 (got "50")',
    ],
    ['PUBLIC_BASE_URL', { PUBLIC_BASE_URL: 'ftp://example.org' }, 'PUBLIC_BASE_URL must use http or https'],
    ['PUBLIC_BASE_URL', { PUBLIC_BASE_URL: 'example.org' }, 'PUBLIC_BASE_URL must be an absolute http(s) URL'],
    ['PUBLIC_BASE_URL', { PUBLIC_BASE_URL: 'https://example.org/?a=1' }, 'PUBLIC_BASE_URL must not contain'],
    ['WORKERS', { WORKERS: 'yes' }, 'WORKERS must be "on" or "off" (got "yes")'],
    ['DEMO_DATA', { DEMO_DATA: 'true' }, 'DEMO_DATA must be "on" or "off"'],
    ['APP_SECRET', { APP_SECRET: 'short' }, 'APP_SECRET must be at least 32 characters'],
    ['APP_SECRET', { NODE_ENV: 'production' }, 'APP_SECRET is required when NODE_ENV=production'],
    ['ADMIN_USERNAME', { ADMIN_USERNAME: 'a b' }, 'ADMIN_USERNAME must be 3 to 64'],
    ['ADMIN_PASSWORD', { ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD must be at least 10 characters'],
    ['NODE_ENV', { NODE_ENV: 'prod' }, 'NODE_ENV must be production, development or test'],
    ['MEILI_HOST', { MEILI_HOST: 'localhost:7700' }, 'MEILI_HOST must use http or https'],
    ['MEILI_HOST', { MEILI_HOST: 'not a url' }, 'MEILI_HOST must be an absolute http(s) URL'],
    ['MEILI_HOST', { MEILI_API_KEY: 'secret' }, 'MEILI_HOST is required when MEILI_API_KEY or MEILI_INDEX is set'],
    ['MEILI_INDEX', { MEILI_HOST: 'http://127.0.0.1:7700', MEILI_INDEX: 'papers/v2' }, 'MEILI_INDEX must be 1 to 100'],
    [
      'RESPONSE_CACHE_MB',
      { RESPONSE_CACHE_MB: '-1' },
      'RESPONSE_CACHE_MB must be an integer from 0 to 4096 (got "-1")',
    ],
    [
      'DATABASE_POOL_SIZE',
      { DATABASE_POOL_SIZE: '1' },
      'DATABASE_POOL_SIZE must be an integer from 2 to 100 (got "1")',
    ],
    [
      'DATABASE_POOL_SIZE',
      { DATABASE_POOL_SIZE: 'ten' },
      'DATABASE_POOL_SIZE must be an integer from 2 to 100 (got "ten")',
    ],
    [
      'LOG_LEVEL',
      { LOG_LEVEL: 'verbose' },
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")',
    ],
    [
      'SHUTDOWN_TIMEOUT_MS',
      { SHUTDOWN_TIMEOUT_MS: '10s' },
      'SHUTDOWN_TIMEOUT_MS must be an integer from 0 to 600000 (got "10s")',
    ],
    [
      'BODY_TIMEOUT_MS',
      { BODY_TIMEOUT_MS: '30s' },
      'BODY_TIMEOUT_MS must be an integer from 100 to 600000 (got "30s")',
    ],
    [
      'MAX_CLIENT_CONNECTIONS',
      { MAX_CLIENT_CONNECTIONS: '0' },
      'MAX_CLIENT_CONNECTIONS must be an integer from 1 to 100000 (got "0")',
    ],
    [
      'REVIEW_CONFIDENCE_THRESHOLD',
      { REVIEW_CONFIDENCE_THRESHOLD: '1.5' },
      'REVIEW_CONFIDENCE_THRESHOLD must be a number from 0 to 1 (got "1.5")',
    ],
    [
      'REVIEW_CONFIDENCE_THRESHOLD',
      { REVIEW_CONFIDENCE_THRESHOLD: '60%' },
      'REVIEW_CONFIDENCE_THRESHOLD must be a number from 0 to 1 (got "60%")',
    ],
    [
      'REVIEW_CONFIDENCE_THRESHOLD',
      { REVIEW_CONFIDENCE_THRESHOLD: '-0.1' },
      'REVIEW_CONFIDENCE_THRESHOLD must be a number from 0 to 1 (got "-0.1")',
    ],
    [
      'REVIEW_CONFIDENCE_THRESHOLD',
      { REVIEW_CONFIDENCE_THRESHOLD: '1e-1' },
      'REVIEW_CONFIDENCE_THRESHOLD must be a number from 0 to 1 (got "1e-1")',
    ],
  ])('rejects a bad %s with one line naming it', (variable, env, message) => {
    const error = fail(env as Record<string, string>)
    expect(error.variable).toBe(variable)
    expect(error.message).toContain(message)
    expect(error.message).not.toContain('\n')
  })
})

describe('resolveAppSecret', () => {
  test('generates a secret once and keeps it in the data dir', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'geroscope-config-'))
    const first = resolveAppSecret(parseConfig({ DATA_DIR: dataDir }))
    const second = resolveAppSecret(parseConfig({ DATA_DIR: dataDir }))
    expect(first.appSecret.length).toBeGreaterThanOrEqual(32)
    expect(second.appSecret).toBe(first.appSecret)
    expect(readFileSync(join(dataDir, 'app-secret'), 'utf8').trim()).toBe(first.appSecret)
    expect(statSync(join(dataDir, 'app-secret')).mode & 0o077).toBe(0) // readable by its owner only
  })

  test('prefers APP_SECRET from the environment', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'geroscope-config-'))
    const secret = 's'.repeat(40)
    expect(resolveAppSecret(parseConfig({ DATA_DIR: dataDir, APP_SECRET: secret })).appSecret).toBe(secret)
  })
})

describe('the service entry point', () => {
  test('stops with one line naming the bad variable', async () => {
    const child = Bun.spawn([process.execPath, 'src/index.ts'], {
      env: { ...process.env, PORT: 'abc', DATABASE_URL: '' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()])
    expect(code).toBe(1)
    expect(stderr.trim()).toBe('Invalid configuration: PORT must be an integer from 1 to 65535 (got "abc")')
  })
})
