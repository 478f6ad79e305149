/**
 * The real service in a child process, as operators run it: `bun src/index.ts` (or another command,
 * e.g. Deno's), on a fresh embedded data dir or a fresh PostgreSQL database. Reads its JSON log
 * lines as they come and resolves `ready` once it says it is listening.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import postgres from 'postgres'
import { databaseUrl, scratchDatabaseName, testDriver } from './database'

export type LogLine = { level: string; msg: string; [field: string]: unknown }

export type ServiceProcess = {
  child: Subprocess<'ignore', 'pipe', 'pipe'>
  port: number
  url: string
  lines: LogLine[]
  /** Resolves true once listening, false if the process ended first. */
  ready: Promise<boolean>
  stderr: () => Promise<string>
}

/**
 * A free port for a service process. Drawn below the kernel's ephemeral range (32768 and up on
 * Linux), where outgoing connections, ours to PostgreSQL included, never take a port; an earlier
 * draw from 20000-60000 once met a client socket on the port and the service failed with
 * EADDRINUSE. Each draw is checked by listening on it (the machine is shared).
 */
export function sparePort(): number {
  for (let attempt = 0; ; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 12000)
    try {
      Bun.listen({ hostname: '127.0.0.1', port, socket: { data() {} } }).stop(true)
      return port
    } catch (error) {
      if (attempt >= 50) throw error
    }
  }
}

/** Environment for a fresh database on the run's driver: a new PostgreSQL database, or a new data dir. */
export async function freshServiceEnv(label: string): Promise<Record<string, string>> {
  const dataDir = mkdtempSync(join(tmpdir(), `geroscope-${label}-`))
  if (testDriver !== 'postgres') return { DATA_DIR: dataDir, DATABASE_URL: '' }
  const name = scratchDatabaseName(label)
  const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database "${name}"`)
  await admin.end()
  return { DATA_DIR: dataDir, DATABASE_URL: databaseUrl(name) }
}

/**
 * `options.exactEnv`: the process gets `env` (and PATH) only, as a container would, instead of
 * this process's environment with test defaults under `env`.
 */
export function startServiceProcess(
  env: Record<string, string>,
  command: string[] = [process.execPath, 'src/index.ts'],
  options: { cwd?: string; exactEnv?: boolean } = {},
): ServiceProcess {
  const port = Number(env.PORT ?? sparePort())
  const defaults = {
    NODE_ENV: '',
    LOG_LEVEL: 'info',
    WORKERS: 'off',
    DEMO_DATA: 'off',
    APP_SECRET: 'x'.repeat(40),
    ADMIN_PASSWORD: '',
  }
  const child = Bun.spawn(command, {
    env: options.exactEnv
      ? { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env, PORT: String(port) }
      : { ...process.env, ...defaults, ...env, PORT: String(port) },
    cwd: options.cwd,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const lines: LogLine[] = []
  let listening: (started: boolean) => void = () => {}
  const ready = new Promise<boolean>((resolve) => {
    listening = resolve
  })
  void (async () => {
    // reads every line the process prints, for as long as it runs
    const decoder = new TextDecoder()
    let buffer = ''
    for await (const chunk of child.stdout) {
      buffer += decoder.decode(chunk)
      const parts = buffer.split('\n')
      buffer = parts.pop()!
      for (const part of parts) {
        if (!part.trim()) continue
        let line: LogLine
        try {
          line = JSON.parse(part)
        } catch {
          line = { level: 'unstructured', msg: part } // a test fails on these: every line must be JSON
        }
        lines.push(line)
        if (line.msg?.startsWith('Geroscope is listening')) listening(true)
      }
    }
    listening(false)
  })()
  let stderrText: Promise<string> | null = null
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    lines,
    ready,
    stderr: () => (stderrText ??= new Response(child.stderr).text()),
  }
}

/** Runs `bun scripts/cli.ts ...` with `env`; returns its last line of output (e.g. a new key). */
export async function cli(env: Record<string, string>, ...argv: string[]): Promise<string> {
  const child = Bun.spawn([process.execPath, 'scripts/cli.ts', ...argv], {
    env: { ...process.env, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [code, stdout, stderr] = await Promise.all([
    child.exited,
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
  ])
  if (code !== 0) throw new Error(`cli ${argv.join(' ')} failed (${code}): ${stderr}`)
  return stdout.trim().split('\n').at(-1)!
}
