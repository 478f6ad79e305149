/**
 * `cli export`: one bulk export run now (the one the schedule makes nightly), into EXPORT_DIR;
 * exclusive with the scheduled run (same job name and lock), so a second run while one goes on
 * ends with the lock's message and exit status 1.
 */
import { runExport, EXPORT_JOB } from '../pipeline/exports/run-export'
import { runJob } from '../jobs/run-job'
import type { Command } from './command'

export const EXPORT_COMMANDS: Command[] = [
  {
    words: ['export'],
    usage: 'export',
    flags: {},
    run: async (_flags, database, { config, io }) => {
      const started = performance.now()
      const counts = await runJob(database, EXPORT_JOB, () =>
        runExport(database, config, {
          onFile: (f) => io.err(`${f.resource}: ${f.count} items, ${f.bytes} bytes in ${(f.ms / 1000).toFixed(1)} s`),
        }),
      )
      io.out(
        `export written to ${config.exportDir}: ${counts.papers} papers, ${counts.stories} ` +
          `stories, ${counts.entities} entities, ` +
          `${counts.claims} claims (${counts.bytes} bytes) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      )
    },
  },
]
