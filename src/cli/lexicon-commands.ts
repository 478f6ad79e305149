/**
 * `cli lexicon apply`: re-keys, merges and refreshes entities against the lexicon (every open does it once per
 * version).
 */
import { resolveEntityName } from '../lexicon/matcher'
import { applyLexicon } from '../lexicon/apply'
import type { Command } from './command'

export const LEXICON_COMMANDS: Command[] = [
  {
    words: ['lexicon', 'apply'],
    usage: 'lexicon apply [--force true]',
    flags: { force: { values: ['true', 'false'] } },
    run: async (flags, database, { io }) => {
      const r = await applyLexicon(database, resolveEntityName, flags.force === 'true')
      io.out(
        r.applied
          ? `lexicon ${r.version} applied: ${r.renamed} entities re-keyed, ${r.merged} merged into an existing ` +
              `entity, ${r.refreshed} names and aliases refreshed`
          : `lexicon ${r.version} was already applied (--force true to redo it)`,
      )
    },
  },
]
