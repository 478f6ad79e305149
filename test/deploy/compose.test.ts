/**
 * compose.yaml (which cannot be run here): it parses, runs the service beside PostgreSQL and
 * Meilisearch, and gives the service an environment that config.ts accepts as it stands.
 */
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { parseConfig } from '../../src/config'

type Service = {
  build?: string
  image?: string
  environment?: Record<string, string>
  depends_on?: Record<string, unknown>
  healthcheck?: unknown
}
const compose = Bun.YAML.parse(readFileSync('compose.yaml', 'utf8')) as { services: Record<string, Service> }

/** ${VAR:-default} as compose expands it with VAR unset; ${VAR:?message} with VAR set to `given`. */
function expand(value: string, given: Record<string, string>): string {
  return String(value).replace(
    /\$\{(\w+)(?::([-?])([^}]*))?\}/g,
    (_, name: string, kind: string | undefined, rest: string) => {
      if (given[name] !== undefined) return given[name]
      if (kind === '-') return rest
      throw new Error(`${name} must be set: ${rest}`)
    },
  )
}

describe('compose.yaml', () => {
  test('the service, built from the Dockerfile, with PostgreSQL (healthy first) and Meilisearch', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['geroscope', 'meilisearch', 'postgres'])
    const app = compose.services.geroscope
    expect(app.build).toBe('.')
    expect(app.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      meilisearch: { condition: 'service_started' },
    })
    expect(compose.services.postgres.healthcheck).toBeDefined()
  })

  test("the service's environment passes config.ts as written, and the secrets must be given", () => {
    const environment = compose.services.geroscope.environment!
    const secrets = { APP_SECRET: 'a-compose-secret-that-is-long-enough-0123', MEILI_MASTER_KEY: 'a-master-key-of-16+' }
    const env = Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, expand(v, secrets)]))
    const config = parseConfig({ ...env, NODE_ENV: 'production' })
    expect(config.databaseUrl).toBe('postgres://geroscope:geroscope@postgres:5432/geroscope')
    expect(config.meili).toEqual({ host: 'http://meilisearch:7700', apiKey: secrets.MEILI_MASTER_KEY, index: 'papers' })
    expect(config.rateLimitStore).toBe('postgres')
    expect(() => expand(environment.APP_SECRET, {})).toThrow('APP_SECRET must be set')
  })
})
