/**
 * The analyzer the configuration asks for: the model when LLM_BASE_URL and LLM_MODEL are set (for every paper, or
 * with LLM_ROUTE=uncertain only for those the built-in analyzer is unsure of), else the built-in one.
 */
import type { Config } from '../../config'
import type { Db } from '../../db/client'
import type { Analyzer } from './analyzer'
import { builtinAnalyzer } from './builtin-analyzer'
import { llmAnalyzer } from './llm/analyzer'
import { routingAnalyzer } from './routing-analyzer'

export function createAnalyzer(db: Db, config: Pick<Config, 'llm'>): Analyzer {
  if (!config.llm) return builtinAnalyzer()
  const model = llmAnalyzer(db, config.llm)
  const route = config.llm.route
  return route?.mode === 'uncertain' ? routingAnalyzer(builtinAnalyzer(), model, route.threshold) : model
}
