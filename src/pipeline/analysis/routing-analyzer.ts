/**
 * LLM_ROUTE=uncertain: the model where it pays. The built-in analyzer judges every paper first; a paper whose
 * lowest judgement confidence is below the threshold goes to the model, every other one keeps the built-in
 * judgement, extraction and story, recorded under the built-in's name and prompt version. A paper the model
 * fails on fails as it would with the model alone (no built-in answer stands in), so the next run retries it.
 * Feed articles carry no confidence to route by: they go to the model, as with LLM_ROUTE=all.
 */
import type { Analyzer, PaperAnalysis } from './analyzer'
import type { Judgement, PaperInput } from './types'

/** The confidence routing reads: the least sure of the three judgements. */
export const leastConfidence = (j: Judgement) =>
  Math.min(j.relevanceConfidence, j.studyTypeConfidence, j.topicConfidence)

export function routingAnalyzer(builtin: Analyzer, model: Analyzer, threshold: number): Analyzer {
  return {
    // Reported as the analyzer of the run, and recorded for the papers and articles the model answers.
    model: model.model,
    concurrency: model.concurrency,
    promptVersion: () => model.promptVersion(),
    promptVersions: async () => [await builtin.promptVersion(), await model.promptVersion()],
    articlePromptVersion: () => model.articlePromptVersion(),
    analyzeArticle: (article) => model.analyzeArticle(article),
    usage: () => model.usage(),

    async analyzePaper(paper: PaperInput): Promise<PaperAnalysis> {
      const first = await builtin.analyzePaper(paper)
      if (leastConfidence(first.judgement) < threshold) return model.analyzePaper(paper)
      return {
        ...first,
        judgedBy: first.judgedBy ?? { model: builtin.model, promptVersion: await builtin.promptVersion() },
      }
    },
  }
}
