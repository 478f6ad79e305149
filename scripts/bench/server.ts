/** Benchmark helpers: start the real service (`bun src/index.ts`) on PostgreSQL and wait until it answers. */
import type { Subprocess } from 'bun'

export type BenchServer = { url: string; pid: number; rssMb: () => number; stop: () => Promise<void> }

/**
 * `cwd`: the tree whose src/index.ts runs (another checkout, to compare builds in one run).
 * `runtimeFlags`: flags for bun itself, e.g. --cpu-prof (scripts/profile-server.ts).
 */
export async function startServer(
  databaseUrl: string,
  port: number,
  env: Record<string, string> = {},
  cwd = process.cwd(),
  runtimeFlags: string[] = [],
): Promise<BenchServer> {
  const child: Subprocess = Bun.spawn([process.execPath, ...runtimeFlags, 'src/index.ts'], {
    cwd,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      WORKERS: 'off',
      DEMO_DATA: 'off',
      NODE_ENV: 'production',
      APP_SECRET: 'b'.repeat(40),
      ...env,
    },
    stdout: 'ignore',
    stderr: 'inherit',
  })
  return listening(child, port)
}

/**
 * The plain implementation issue 15 compares the service with (scripts/bench/plain-server.mjs), on Node as the
 * original ran; `constants` are what it writes into its SQL (the public base URL, licences, study-type labels).
 */
export async function startPlainServer(
  databaseUrl: string,
  port: number,
  env: Record<string, string>,
  constants: object,
): Promise<BenchServer> {
  const node = Bun.which('node')
  if (!node) throw new Error('--plain runs scripts/bench/plain-server.mjs on Node: node is not on the PATH')
  const child: Subprocess = Bun.spawn([node, 'scripts/bench/plain-server.mjs'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      PLAIN_CONSTANTS: JSON.stringify(constants),
      ...env,
    },
    stdout: 'ignore',
    stderr: 'inherit',
  })
  return listening(child, port)
}

/** Waits until the server on `port` answers (an unauthenticated list: 401), then hands it over. */
async function listening(child: Subprocess, port: number): Promise<BenchServer> {
  const url = `http://127.0.0.1:${port}`
  const started = performance.now()
  for (;;) {
    try {
      if ((await fetch(`${url}/api/v1/papers`)).status === 401) break
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`the server on port ${port} exited with ${child.exitCode}`)
    if (performance.now() - started > 120_000) throw new Error('the service did not answer within 120 s')
    await Bun.sleep(50)
  }
  return {
    url,
    pid: child.pid,
    rssMb: () => {
      const status = require('node:fs').readFileSync(`/proc/${child.pid}/status`, 'utf8') as string
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024
    },
    stop: async () => {
      child.kill()
      await child.exited
    },
  }
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}
