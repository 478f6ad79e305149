/**
 * The seam between selecting and storing work (pipeline.ts) and producing results: the built-in
 * analyzer or a language model behind an OpenAI-compatible API. Both give the same shapes.
 */
import type { Extraction, Judgement, PaperInput, StoryDraft } from './types'

export type ArticleInput = { id: number; title: string; summary: string | null; link: string | null }
export type ArticleResult = {
  summary: string
  keyPoints: string[]
  tags: string[]
  entities: unknown[]
  claims: unknown[]
}

export type PaperAnalysis = Extraction & {
  judgement: Judgement
  story: (StoryDraft & { support: number | null; model: string; problems?: string[] }) | null
  /** Who produced this analysis when it is not the analyzer asked (a routing analyzer names the one it kept). */
  judgedBy?: { model: string; promptVersion: string }
}

/** Token counts and failures an analyzer accumulates over a run (job_runs.counts). */
export type Usage = { prompt_tokens: number; completion_tokens: number; requests: number; retries: number }

export interface Analyzer {
  /** Recorded as papers.judgement_model and article_analyses.model. */
  readonly model: string
  /** Recorded as papers.judgement_prompt_version: which questions produced the judgement. */
  promptVersion(): Promise<string>
  /**
   * Every prompt version a judgement made now may carry, when the analyzer hands papers to others (routing);
   * a `stale` run redoes papers judged with any other. Left out: promptVersion() alone.
   */
  promptVersions?(): Promise<string[]>
  /** Recorded as article_analyses.prompt_version. */
  articlePromptVersion(): Promise<string>
  analyzePaper(paper: PaperInput): Promise<PaperAnalysis>
  analyzeArticle(article: ArticleInput): Promise<ArticleResult>
  /** At most this many papers are analysed at once (a model's concurrency limit; 1 for the built-in). */
  readonly concurrency: number
  usage(): Usage
}

/** A result that could not be produced (the model failed or answered invalid JSON after retries). */
export class AnalysisFailure extends Error {
  constructor(
    message: string,
    readonly task: string,
  ) {
    super(message)
    this.name = 'AnalysisFailure'
  }
}
