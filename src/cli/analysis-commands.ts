/**
 * `cli analyze`: one run of the analysis over everything not yet analysed, with progress on stderr;
 * exclusive with the scheduled run and POST /api/analyze (same job name and lock), so a second run
 * while one goes on ends with the lock's message and exit status 1.
 */
import { createAnalyzer } from '../pipeline/analysis/create-analyzer'
import { runAnalysis } from '../pipeline/analysis/pipeline'
import { runJob } from '../jobs/run-job'
import type { Command } from './command'
import { progressReporter } from './progress'

export const ANALYSIS_COMMANDS: Command[] = [
  {
    words: ['analyze'],
    usage: 'analyze [--limit N] [--stale true]',
    flags: { limit: { integer: { min: 1, max: 100_000_000 } }, stale: { values: ['true', 'false'] } },
    run: async (flags, database, { config, io }) => {
      const { db } = database
      const analyzer = createAnalyzer(db, config)
      let report: ((done: number) => void) | null = null
      let lastTotal = 0
      const counts = await runJob(database, 'analyze', () =>
        runAnalysis(db, analyzer, {
          limit: flags.limit ? Number(flags.limit) : undefined,
          stale: flags.stale === 'true',
          onProgress: (done, total) => {
            lastTotal = total
            // the total is known once work is selected
            report ??= progressReporter(io.err, 'papers and articles', total)
            report(done)
          },
        }),
      )
      io.out(
        `analysed with ${analyzer.model}: ${counts.papers} papers (${counts.failed} failed, ${counts.stories} ` +
          `stories, ${counts.stories_held} held back, ` +
          `${counts.entities} entity links, ${counts.claims} claims), ${counts.articles} articles ` +
          `(${counts.articles_failed} failed)` +
          (counts.llm_requests
            ? `; ${counts.llm_requests} model requests, ${counts.prompt_tokens} prompt ` +
              `and ${counts.completion_tokens} completion tokens`
            : '') +
          (lastTotal === 0 ? '; nothing was waiting' : ''),
      )
    },
  },
]
