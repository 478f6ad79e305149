/** The built-in analyzer behind the Analyzer seam: no network, no tokens, one paper at a time. */
import type { Analyzer, ArticleInput, PaperAnalysis } from './analyzer'
import { analyzePaper, BUILTIN_MODEL, BUILTIN_PROMPT_VERSION } from './builtin'
import { analyzeArticleBuiltin } from './builtin/article'
import type { PaperInput } from './types'

export function builtinAnalyzer(): Analyzer {
  return {
    model: BUILTIN_MODEL,
    concurrency: 1,
    promptVersion: async () => BUILTIN_PROMPT_VERSION,
    articlePromptVersion: async () => BUILTIN_PROMPT_VERSION,
    analyzePaper: async (paper: PaperInput): Promise<PaperAnalysis> => {
      const result = analyzePaper(paper)
      return { ...result, story: result.story && { ...result.story, model: BUILTIN_MODEL } }
    },
    analyzeArticle: async (article: ArticleInput) => analyzeArticleBuiltin(article),
    usage: () => ({ prompt_tokens: 0, completion_tokens: 0, requests: 0, retries: 0 }),
  }
}
