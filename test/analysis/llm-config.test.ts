import { describe, expect, test } from 'bun:test'
import { builtinAnalyzer } from '../../src/pipeline/analysis/builtin-analyzer'
import { createAnalyzer } from '../../src/pipeline/analysis/create-analyzer'
import { ConfigError, DEFAULT_LLM_ROUTE_THRESHOLD, parseConfig } from '../../src/config'

describe('LLM configuration', () => {
  test('without LLM_BASE_URL the built-in analyzer is used', () => {
    const config = parseConfig({})
    expect(config.llm).toBeNull()
    expect(createAnalyzer(null as never, config).model).toBe(builtinAnalyzer().model)
  })

  test('with LLM_BASE_URL and LLM_MODEL the model analyzer is used, with defaults for the limits', () => {
    const config = parseConfig({
      LLM_BASE_URL: 'http://127.0.0.1:8080/v1/',
      LLM_MODEL: 'qwen2.5-7b',
      LLM_API_KEY: 'sk-1',
    })
    expect(config.llm).toEqual({
      baseUrl: 'http://127.0.0.1:8080/v1',
      apiKey: 'sk-1',
      model: 'qwen2.5-7b',
      concurrency: 4,
      timeoutMs: 60_000,
      route: { mode: 'all', threshold: DEFAULT_LLM_ROUTE_THRESHOLD },
    })
    const analyzer = createAnalyzer(null as never, config)
    expect(analyzer.model).toBe('qwen2.5-7b')
    expect(analyzer.promptVersions).toBeUndefined() // the model alone, no routing
  })

  test('LLM_ROUTE=uncertain routes through the built-in first, at the default threshold or the one given', () => {
    const base = { LLM_BASE_URL: 'http://127.0.0.1:8080/v1', LLM_MODEL: 'qwen2.5-7b' }
    expect(DEFAULT_LLM_ROUTE_THRESHOLD).toBeGreaterThan(0)
    expect(DEFAULT_LLM_ROUTE_THRESHOLD).toBeLessThan(1)
    expect(parseConfig({ ...base, LLM_ROUTE: 'uncertain' }).llm?.route).toEqual({
      mode: 'uncertain',
      threshold: DEFAULT_LLM_ROUTE_THRESHOLD,
    })
    const config = parseConfig({ ...base, LLM_ROUTE: 'uncertain', LLM_ROUTE_THRESHOLD: '0.65' })
    expect(config.llm?.route).toEqual({ mode: 'uncertain', threshold: 0.65 })
    expect(parseConfig({ ...base, LLM_ROUTE: 'uncertain', LLM_ROUTE_THRESHOLD: '.5' }).llm?.route?.threshold).toBe(0.5)
    expect(parseConfig({ ...base, LLM_ROUTE: 'all' }).llm?.route?.mode).toBe('all')
    const analyzer = createAnalyzer(null as never, config)
    expect(analyzer.model).toBe('qwen2.5-7b') // the run's analyzer is named after the model it may call
    expect(analyzer.promptVersions).toBeFunction()
  })

  test.each([
    [{ LLM_MODEL: 'm' }, 'LLM_BASE_URL'],
    [{ LLM_BASE_URL: 'http://x/v1' }, 'LLM_MODEL'],
    [{ LLM_BASE_URL: 'not a url', LLM_MODEL: 'm' }, 'LLM_BASE_URL'],
    [{ LLM_BASE_URL: 'ftp://x', LLM_MODEL: 'm' }, 'LLM_BASE_URL'],
    [{ LLM_BASE_URL: 'http://x', LLM_MODEL: 'm', LLM_CONCURRENCY: '0' }, 'LLM_CONCURRENCY'],
    [{ LLM_BASE_URL: 'http://x', LLM_MODEL: 'm', LLM_TIMEOUT_MS: 'soon' }, 'LLM_TIMEOUT_MS'],
  ])('%o is refused, naming %s', (env, variable) => {
    expect(() => parseConfig(env)).toThrow(ConfigError)
    try {
      parseConfig(env)
    } catch (error) {
      expect((error as ConfigError).variable).toBe(variable)
    }
  })

  const model = { LLM_BASE_URL: 'http://x/v1', LLM_MODEL: 'm' }
  test.each([
    [{ ...model, LLM_ROUTE: 'some' }, 'Invalid configuration: LLM_ROUTE must be "all" or "uncertain" (got "some")'],
    [
      { ...model, LLM_ROUTE: 'UNCERTAIN' },
      'Invalid configuration: LLM_ROUTE must be "all" or "uncertain" (got "UNCERTAIN")',
    ],
    ...['0', '1', '0.0', '1.0', '1.5', '-0.2', 'abc', '70%', '0.7.1', '1e-1', '0x1', 'NaN'].map(
      (value) =>
        [
          { ...model, LLM_ROUTE: 'uncertain', LLM_ROUTE_THRESHOLD: value },
          `Invalid configuration: LLM_ROUTE_THRESHOLD must be a number between 0 and 1, both excluded, such as ${DEFAULT_LLM_ROUTE_THRESHOLD} (got "${value}")`,
        ] as const,
    ),
    [
      { ...model, LLM_ROUTE_THRESHOLD: '0.6' },
      'Invalid configuration: LLM_ROUTE_THRESHOLD applies only with LLM_ROUTE=uncertain (with "all" every paper goes to the model)',
    ],
    [
      { ...model, LLM_ROUTE: 'all', LLM_ROUTE_THRESHOLD: '0.6' },
      'Invalid configuration: LLM_ROUTE_THRESHOLD applies only with LLM_ROUTE=uncertain (with "all" every paper goes to the model)',
    ],
    [
      { LLM_ROUTE: 'uncertain' },
      'Invalid configuration: LLM_ROUTE needs LLM_BASE_URL and LLM_MODEL (without a model the built-in analyzer judges every paper)',
    ],
    [
      { LLM_ROUTE_THRESHOLD: '0.6' },
      'Invalid configuration: LLM_ROUTE_THRESHOLD needs LLM_BASE_URL and LLM_MODEL (without a model the built-in analyzer judges every paper)',
    ],
  ] as [Record<string, string>, string][])('routing: %o is refused with a precise message', (env, message) => {
    expect(() => parseConfig(env)).toThrow(message)
    let caught: unknown
    try {
      parseConfig(env)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(ConfigError)
    expect((caught as Error).message).toBe(message)
    expect((caught as ConfigError).variable).toBe(message.split(' ')[2])
  })
})
