/** Entry point of `bun run cli <command>`; see src/cli/commands.ts for the commands. */
import { runCli } from '../src/cli/commands'
import { ConfigError, parseConfig } from '../src/config'
import { openConfiguredDatabase } from '../src/lifecycle/open-database'

let config
try {
  config = parseConfig()
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  console.error(error.message)
  process.exit(1)
}

const code = await runCli(process.argv.slice(2), {
  config,
  io: { out: (line) => console.log(line), err: (line) => console.error(line) },
  open: () => openConfiguredDatabase(config, 4),
})
process.exit(code)
