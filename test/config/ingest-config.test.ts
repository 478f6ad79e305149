import { describe, expect, test } from 'bun:test'
import { ConfigError, DEFAULT_EUROPEPMC_QUERY, parseConfig } from '../../src/config'

describe('ingestion configuration', () => {
  test('defaults: the public Europe PMC service, the aging-biology query, public feed addresses only', () => {
    const config = parseConfig({})
    expect(config.europepmcBaseUrl).toBe('https://www.ebi.ac.uk/europepmc/webservices/rest')
    expect(config.europepmcQuery).toBe(DEFAULT_EUROPEPMC_QUERY)
    expect(config.scrapeAllowPrivate).toBe(false)
  })

  test('takes a replay server, a query of its own and the private-address switch', () => {
    const config = parseConfig({
      EUROPEPMC_BASE_URL: 'http://127.0.0.1:8080/rest/',
      EUROPEPMC_QUERY: 'senolytic',
      SCRAPE_ALLOW_PRIVATE: 'on',
    })
    expect(config).toMatchObject({
      europepmcBaseUrl: 'http://127.0.0.1:8080/rest',
      europepmcQuery: 'senolytic',
      scrapeAllowPrivate: true,
    })
  })

  test.each([
    [
      { EUROPEPMC_BASE_URL: 'ftp://ebi.ac.uk/rest' },
      'Invalid configuration: EUROPEPMC_BASE_URL must use http or https (got "ftp:")',
    ],
    [
      { EUROPEPMC_BASE_URL: 'not a url' },
      'Invalid configuration: EUROPEPMC_BASE_URL must be an absolute http(s) URL (got "not a url")',
    ],
    [
      { EUROPEPMC_BASE_URL: 'https://x.test/rest?q=1' },
      'Invalid configuration: EUROPEPMC_BASE_URL must not contain a query or a fragment',
    ],
    [
      { EUROPEPMC_QUERY: 'a'.repeat(2001) },
      'Invalid configuration: EUROPEPMC_QUERY must be at most 2,000 characters long',
    ],
    [
      { SCRAPE_ALLOW_PRIVATE: 'true' },
      'Invalid configuration: SCRAPE_ALLOW_PRIVATE must be "on" or "off" (got "true")',
    ],
  ])('refuses %p', (env, message) => {
    expect(() => parseConfig(env)).toThrow(ConfigError)
    expect(() => parseConfig(env)).toThrow(message)
  })
})
