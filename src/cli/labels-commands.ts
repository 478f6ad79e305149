/**
 * `cli labels export [--out file]`: every editor correction as hand-judged labels, in the
 * hand-labelled set's format (src/pipeline/judgements/labels.ts), for the next training run. Without --out
 * the JSON goes to stdout; with it, to the file (replaced), and one line says how many.
 */
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { editorLabels } from '../pipeline/judgements/labels'
import type { Command } from './command'

export const LABELS_COMMANDS: Command[] = [
  {
    words: ['labels', 'export'],
    usage: 'labels export [--out file]',
    flags: { out: {} },
    run: async (flags, database, { io }) => {
      const labels = await editorLabels(database.db, new Date())
      const text = JSON.stringify(labels, null, 1) + '\n'
      if (flags.out === undefined) return io.out(text.trimEnd())
      const path = resolve(flags.out)
      try {
        writeFileSync(path, text)
      } catch (error) {
        throw new Error(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
      }
      io.out(`${labels.papers.length} editor correction${labels.papers.length === 1 ? '' : 's'} written to ${path}`)
    },
  },
]
