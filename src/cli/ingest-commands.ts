/** `ingest europepmc` and `scrape`: one run of the harvest or scrape job, exclusive with the scheduled one. */
import { harvestEuropePmc } from '../pipeline/ingest/europepmc/harvest'
import { scrapeFeeds, type SourceResult } from '../pipeline/ingest/rss/scrape'
import { runJob } from '../jobs/run-job'
import { UsageError } from './args'
import type { Command } from './command'
import { progressReporter } from './progress'

function day(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const time = Date.parse(`${value}T00:00:00Z`)
  const valid =
    /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(time) && new Date(time).toISOString().startsWith(value)
  if (!valid) throw new UsageError(`--${flag} must be a date like 2026-11-01 (got "${value}")`)
  return value
}

export const INGEST_COMMANDS: Command[] = [
  {
    words: ['ingest', 'europepmc'],
    usage: 'ingest europepmc [--since YYYY-MM-DD [--until YYYY-MM-DD]]',
    flags: { since: {}, until: {} },
    run: async (flags, database, { config, io }) => {
      const since = day('since', flags.since)
      const until = day('until', flags.until)
      if (until && !since)
        throw new UsageError('--until needs --since (without them the run continues the incremental harvest)')
      if (since && until && since > until) throw new UsageError(`--since ${since} is after --until ${until}`)
      let report: ((done: number) => void) | null = null
      const counts = await runJob(database, 'harvest', () =>
        harvestEuropePmc(database, config, {
          since,
          until,
          onProgress: ({ done, total }) => (report ??= progressReporter(io.err, 'records', total))(done),
          onRefused: (id, reason) => io.err(`${id}: skipped, ${reason}`),
        }),
      )
      io.out(
        `harvest done: ${counts.records} records in ${counts.pages} pages; ${counts.inserted} new, ${counts.updated} ` +
          `updated ` +
          `(${counts.textChanged} with new text), ${counts.unchanged} unchanged, ${counts.withdrawn} ` +
          `withdrawn, ${counts.skipped} skipped`,
      )
    },
  },
  {
    words: ['scrape'],
    usage: 'scrape',
    flags: {},
    run: async (_flags, database, { config, io }) => {
      const counts = await runJob(database, 'scrape', () =>
        scrapeFeeds(database, config, { onSource: (r) => io.err(sourceLine(r)) }),
      )
      io.out(
        `scrape done: ${counts.sources} sources, ${counts.failed} failed, ${counts.added} new ` +
          `articles, ${counts.linked} linked to papers`,
      )
      // Every source had its turn; the exit status still says that some of them failed.
      if (counts.failed > 0)
        throw new Error(`${counts.failed} of ${counts.sources} sources failed (one line each above)`)
    },
  },
]

function sourceLine(r: SourceResult): string {
  if (r.error) return `${r.name}: failed: ${r.error}`
  if (r.notModified) return `${r.name}: not modified`
  const dropped = [
    r.skipped ? `${r.skipped} skipped` : '',
    r.linksRefused ? `${r.linksRefused} links refused` : '',
  ].filter(Boolean)
  return `${r.name}: ${r.items} items, ${r.added} new${dropped.length ? `, ${dropped.join(', ')}` : ''}`
}
