/** The analyzer the configuration asks for: the model when LLM_BASE_URL and LLM_MODEL are set, else the built-in one. */
import type { Config } from '../config'
import type { Db } from '../db/client'
import type { Analyzer } from './analyzer'
import { builtinAnalyzer } from './builtin-analyzer'
import { llmAnalyzer } from './llm/analyzer'

export function createAnalyzer(db: Db, config: Pick<Config, 'llm'>): Analyzer {
  return config.llm ? llmAnalyzer(db, config.llm) : builtinAnalyzer()
}
