/** Operator commands: `bun run cli <command>`. Each opens (and migrates) the configured database. */
import type { Database } from '../db/client'
import { MEMBERSHIPS, ROLES, createAccount, setMembership, type Membership, type Role } from '../accounts/accounts'
import { TIERS, createKey, listKeys, revokeKey, type KeyInfo, type Tier } from '../accounts/keys'
import { rebuildSearchIndex } from '../search'
import { loadCorpus } from '../seed/bulk-load'
import { seedDemo } from '../seed/demo'
import { parseFlags, UsageError } from './args'
import { INGEST_COMMANDS } from './ingest-commands'
import { progressReporter } from './progress'
import { rebuildPaperDocuments } from '../documents/papers'
import { rebuildClaimDocuments } from '../documents/claims'
import { DOCUMENTS_JOB } from '../documents/refresher'
import { withJobLock } from '../jobs/job-lock'
import { ANALYSIS_COMMANDS } from './analysis-commands'
import { LEXICON_COMMANDS } from './lexicon-commands'
import { EXPORT_COMMANDS } from './export-commands'
import { LABELS_COMMANDS } from './labels-commands'
import { ACCOUNT_ACCESS_COMMANDS } from './account-access-commands'
import type { CliContext, CliIO, Command } from './command'

export type { CliContext, CliIO, Command } from './command'

const today = () => new Date().toISOString().slice(0, 10)

function formatKey(k: KeyInfo): string {
  const status = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active'
  const used = k.lastUsedAt ? k.lastUsedAt.toISOString() : 'never'
  return [k.id, k.username, k.tier, status, `created ${k.createdAt.toISOString()}`, `last used ${used}`, k.label ?? '']
    .join('\t')
    .trimEnd()
}

export const COMMANDS: Command[] = [
  {
    words: ['migrate'],
    usage: 'migrate',
    flags: {},
    run: async (_flags, _db, { io }) => io.out('migrations applied'),
  },
  {
    words: ['seed', 'demo'],
    usage: 'seed demo',
    flags: {},
    run: async (_flags, database, { io }) => {
      const result = await seedDemo(database)
      if (!result.loaded)
        throw new Error(
          `the database already holds ${result.papers} papers; the demo corpus loads only into an empty database`,
        )
      const c = result.counts
      io.out(
        `demo corpus loaded: ${c.papers} papers, ${c.stories} stories (${c.heldStories} held ` +
          `back), ${c.paperEntities} paper entities, ${c.claims} claims`,
      )
      io.out(`demo API key (account "${result.username}", member tier):`)
      io.out(result.apiKey)
    },
  },
  {
    words: ['seed', 'synthetic'],
    usage: 'seed synthetic --papers N [--seed S]',
    flags: {
      papers: { required: true, integer: { min: 1, max: 5_000_000 } },
      seed: { integer: { min: 0, max: 2 ** 31 - 1 } },
    },
    run: async (flags, database, { io }) => {
      const total = Number(flags.papers)
      const seed = Number(flags.seed ?? 1)
      const started = performance.now()
      let report: ((done: number) => void) | null = null // for the papers this run adds
      const c = await loadCorpus(database, { papers: total, seed, endDate: today(), days: 90 }, (p) =>
        (report ??= progressReporter(io.err, 'papers', p.total))(p.papers),
      )
      const seconds = (performance.now() - started) / 1000
      if (c.alreadyLoaded === total) {
        io.out(`synthetic corpus (seed ${seed}) is already loaded: ${total} papers; nothing to add`)
        return
      }
      const resumed = c.alreadyLoaded ? `; ${c.alreadyLoaded} papers were already loaded by an earlier run` : ''
      io.out(
        `synthetic corpus loaded (seed ${seed}): ${c.papers} papers, ${c.stories} stories (${c.heldStories} held ` +
          `back), ${c.paperEntities} paper entities, ${c.claims} claims in ${seconds.toFixed(1)} s${resumed}`,
      )
    },
  },
  {
    words: ['search', 'reindex'],
    usage: 'search reindex',
    flags: {},
    run: async (_flags, database, { config, io }) => {
      let report: ((done: number) => void) | null = null
      const { papers } = await rebuildSearchIndex(database, config, (done, total) =>
        (report ??= progressReporter(io.err, 'papers', total))(done),
      )
      io.out(`search index "${config.meili!.index}" rebuilt with ${papers} papers`)
    },
  },
  {
    // After a bulk load, or to rebuild on purpose; resumable: a run stopped half-way goes on from the last batch.
    words: ['documents', 'rebuild'],
    usage: 'documents rebuild',
    flags: {},
    run: async (_flags, database, { io }) => {
      const started = performance.now()
      let report: ((done: number) => void) | null = null
      let claimReport: ((done: number) => void) | null = null
      const [papers, claims] = await withJobLock(database, DOCUMENTS_JOB, async () => [
        await rebuildPaperDocuments(database.db, {
          onProgress: (done, total) => (report ??= progressReporter(io.err, 'documents', total))(done),
        }),
        await rebuildClaimDocuments(database.db, {
          onProgress: (done, total) => (claimReport ??= progressReporter(io.err, 'claim documents', total))(done),
        }),
      ])
      const resumed = papers.resumedAfter ? ` (resumed after ${papers.resumedAfter})` : ''
      const claimsResumed = claims.resumedAfter ? ` (resumed after claim ${claims.resumedAfter})` : ''
      io.out(
        `stored documents rebuilt${resumed}: ${papers.written} written, ` +
          `claim documents${claimsResumed}: ${claims.written} written ` +
          `in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      )
    },
  },
  {
    words: ['accounts', 'create'],
    usage: 'accounts create --username U --password P --role admin|member [--membership active|lapsed]',
    flags: {
      username: { required: true },
      password: { required: true },
      role: { required: true, values: ROLES },
      membership: { values: MEMBERSHIPS },
    },
    run: async (flags, { db }, { io }) => {
      const account = await createAccount(db, {
        username: flags.username!,
        password: flags.password!,
        role: flags.role as Role,
        membership: flags.membership as Membership | undefined,
      })
      io.out(
        `account "${account.username}" created (id ${account.id}, role ${account.role}, ` +
          `membership ${account.membership})`,
      )
    },
  },
  {
    words: ['accounts', 'membership'],
    usage: 'accounts membership --username U --status active|lapsed',
    flags: { username: { required: true }, status: { required: true, values: MEMBERSHIPS } },
    run: async (flags, { db }, { io }) => {
      const account = await setMembership(db, flags.username!, flags.status as Membership)
      io.out(`membership of "${account.username}" is now ${account.membership}`)
    },
  },
  ...ACCOUNT_ACCESS_COMMANDS,
  {
    words: ['keys', 'create'],
    usage: 'keys create --username U --tier member|pro [--label L]',
    flags: { username: { required: true }, tier: { required: true, values: TIERS }, label: {} },
    run: async (flags, { db }, { io }) => {
      const { key, info } = await createKey(db, flags.username!, flags.tier as Tier, flags.label ?? null)
      io.out(`${info.tier} key ${info.id} created for "${info.username}"; it is shown only now:`)
      io.out(key)
    },
  },
  {
    words: ['keys', 'list'],
    usage: 'keys list [--username U]',
    flags: { username: {} },
    run: async (flags, { db }, { io }) => {
      const keys = await listKeys(db, flags.username)
      if (keys.length === 0) io.out('no keys')
      for (const k of keys) io.out(formatKey(k))
    },
  },
  {
    words: ['keys', 'revoke'],
    usage: 'keys revoke --id KEY_ID',
    flags: { id: { required: true } },
    run: async (flags, { db }, { io }) => {
      const { info, alreadyRevoked } = await revokeKey(db, flags.id!)
      io.out(
        alreadyRevoked
          ? `key ${info.id} was already revoked (${info.revokedAt!.toISOString()})`
          : `key ${info.id} revoked`,
      )
    },
  },
  ...INGEST_COMMANDS,
  ...ANALYSIS_COMMANDS,
  ...LEXICON_COMMANDS,
  ...EXPORT_COMMANDS,
  ...LABELS_COMMANDS,
]

export function usage(): string {
  return ['usage: bun run cli <command>', '', ...COMMANDS.map((c) => `  ${c.usage}`)].join('\n')
}

/** Runs one command; returns the process exit code. Errors are one line on stderr. */
export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help') {
    ctx.io.out(usage())
    return argv.length === 0 ? 2 : 0
  }
  const command = COMMANDS.filter((c) => c.words.every((w, i) => argv[i] === w)).sort(
    (a, b) => b.words.length - a.words.length,
  )[0]
  if (!command) {
    ctx.io.err(
      `error: unknown command "${argv
        .filter((a) => !a.startsWith('--'))
        .slice(0, 2)
        .join(' ')}" (run "bun run cli help")`,
    )
    return 2
  }
  let database: Database | null = null
  try {
    const flags = parseFlags(argv.slice(command.words.length), command.flags)
    database = await ctx.open()
    await command.run(flags, database, ctx)
    return 0
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    ctx.io.err(`error: ${message}`)
    return error instanceof UsageError ? 2 : 1
  } finally {
    await database?.close()
  }
}
