/** Runs CLI commands in-process against a test database and captures what they print. */
import { runCli } from '../../src/cli/commands'
import { parseConfig } from '../../src/config'
import type { Database } from '../../src/db/client'

export type CliResult = { code: number; stdout: string[]; stderr: string[] }

export function cli(database: Database, ...argv: string[]): Promise<CliResult> {
  return cliWithEnv(database, {}, ...argv)
}

/** The same, with configuration read from `env` (e.g. EUROPEPMC_BASE_URL pointing at a local server). */
export async function cliWithEnv(
  database: Database,
  env: Record<string, string>,
  ...argv: string[]
): Promise<CliResult> {
  const stdout: string[] = []
  const stderr: string[] = []
  // The command closes its database when done; the test keeps using it, so hand out a non-closing view.
  const view: Database = { ...database, close: async () => {} }
  const code = await runCli(argv, {
    config: parseConfig(env),
    io: { out: (l) => stdout.push(...l.split('\n')), err: (l) => stderr.push(...l.split('\n')) },
    open: async () => view,
  })
  return { code, stdout, stderr }
}
