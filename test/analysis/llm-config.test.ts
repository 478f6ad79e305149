import { describe, expect, test } from 'bun:test'
import { builtinAnalyzer } from '../../src/analysis/builtin-analyzer'
import { createAnalyzer } from '../../src/analysis/create-analyzer'
import { ConfigError, parseConfig } from '../../src/config'

describe('LLM configuration', () => {
  test('without LLM_BASE_URL the built-in analyzer is used', () => {
    const config = parseConfig({})
    expect(config.llm).toBeNull()
    expect(createAnalyzer(null as never, config).model).toBe(builtinAnalyzer().model)
  })

  test('with LLM_BASE_URL and LLM_MODEL the model analyzer is used, with defaults for the limits', () => {
    const config = parseConfig({ LLM_BASE_URL: 'http://127.0.0.1:8080/v1/', LLM_MODEL: 'qwen2.5-7b', LLM_API_KEY: 'sk-1' })
    expect(config.llm).toEqual({ baseUrl: 'http://127.0.0.1:8080/v1', apiKey: 'sk-1', model: 'qwen2.5-7b', concurrency: 4, timeoutMs: 60_000 })
    expect(createAnalyzer(null as never, config).model).toBe('qwen2.5-7b')
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
})
