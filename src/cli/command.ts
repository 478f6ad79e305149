/**
 * What one operator command is, and what it runs with. Its own file so the command lists (./*-commands.ts) and the
 * dispatcher that gathers them (./commands.ts) both import it without importing each other.
 */
import type { Config } from '../config'
import type { Database } from '../db/client'
import type { FlagSpec, ParsedFlags } from './args'

export type CliIO = { out: (line: string) => void; err: (line: string) => void }
export type CliContext = { config: Config; io: CliIO; open: () => Promise<Database> }

export type Command = {
  words: string[]
  usage: string
  flags: Record<string, FlagSpec>
  run: (flags: ParsedFlags, database: Database, ctx: CliContext) => Promise<void>
}
