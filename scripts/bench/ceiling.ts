/**
 * The database's own ceiling for a scenario: the statements the service sends for a sample of its
 * requests, captured in process (postgres.js's debug hook), replayed by pgbench at the same
 * concurrency. One pgbench transaction is one request's statements, so pgbench's tps is the most
 * requests per second the server could answer were the service free.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../src/app'
import { parseConfig, resolveAppSecret } from '../../src/config'
import { openDatabase } from '../../src/db/client'
import { KeyUsageRecorder } from '../../src/accounts/key-last-used'
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store'

export type Captured = { text: string; parameters: unknown[] }[]

/**
 * Each path's statements, as one list per path, with the response cache off. The key is used once
 * before the capture, so its look-up (cached by the service) is not counted as part of a request.
 */
export async function captureStatements(databaseUrl: string, key: string, paths: string[]): Promise<Captured[]> {
  let current: Captured | null = null
  const database = await openDatabase({
    kind: 'postgres',
    url: databaseUrl,
    max: 10,
    onQuery: (text, parameters) => current?.push({ text, parameters: [...parameters] }),
  })
  const config = resolveAppSecret(
    parseConfig({
      ...process.env,
      DATABASE_URL: databaseUrl,
      WORKERS: 'off',
      DEMO_DATA: 'off',
      APP_SECRET: 'b'.repeat(40),
      RESPONSE_CACHE_MB: '0',
    }),
  )
  const limits = await MemoryRateLimitStore.open(database, new Date())
  const keyUsage = new KeyUsageRecorder(database)
  const app = buildApp({ config, database, limits, keyUsage })
  const ask = async (path: string) => {
    const response = await app.handle(
      new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key}` } }),
    )
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`)
    await response.arrayBuffer()
  }
  await ask(paths[0])
  const out: Captured[] = []
  try {
    for (const path of paths) {
      current = []
      await ask(path)
      out.push(current.filter((s) => /^\s*(select|with)\b/i.test(s.text)))
      current = null
    }
  } finally {
    await keyUsage.close()
    await limits.close()
    await database.close()
  }
  return out
}

/** An array parameter as PostgreSQL's array text: {"a","b"}. */
const arrayText = (values: unknown[]): string =>
  `{${values.map((v) => (v === null ? 'NULL' : `"${String(v).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`)).join(',')}}`

/** A parameter as a SQL literal (postgres.js hands most over serialized as strings; arrays as arrays). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  const text = Array.isArray(value) ? arrayText(value) : String(value)
  return `'${text.replaceAll("'", "''")}'`
}

/**
 * pgbench reads `:name` as a variable even inside a quoted literal: such literals are rewritten as
 * escape strings with the colon as \x3a.
 */
const hideColons = (statement: string) =>
  statement.replace(/(?<![A-Za-z0-9_])'((?:[^']|'')*)'/g, (whole, body: string) =>
    body.includes(':') ? `E'${body.replaceAll('\\', '\\\\').replaceAll(':', '\\x3a')}'` : whole,
  )

/** The statement with its $n placeholders replaced by literals, on one line. */
export function inline({ text, parameters }: Captured[number]): string {
  const oneLine = text.replace(/\s+/g, ' ').trim()
  return hideColons(oneLine.replace(/\$(\d+)/g, (_, n) => literal(parameters[Number(n) - 1])))
}

/** A pgbench script that runs one captured request's statements per transaction, picked at random. */
export function pgbenchScript(requests: Captured[]): string {
  const lines = [`\\set r random(1, ${requests.length})`]
  requests.forEach((statements, i) => {
    lines.push(`${i === 0 ? '\\if' : '\\elif'} :r = ${i + 1}`)
    for (const s of statements) lines.push(`${inline(s)};`)
  })
  lines.push('\\endif')
  return lines.join('\n') + '\n'
}

/** pgbench's transactions per second with `clients` connections, prepared statements, for `seconds`. */
export async function pgbench(databaseUrl: string, script: string, seconds: number, clients: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'geroscope-pgbench-'))
  const file = join(dir, 'script.sql')
  writeFileSync(file, script)
  const child = Bun.spawn(
    [
      'pgbench',
      '-n',
      '-M',
      'prepared',
      '-c',
      String(clients),
      '-j',
      '2',
      '-T',
      String(seconds),
      '-f',
      file,
      databaseUrl,
    ],
    {
      stdout: 'pipe',
      stderr: 'pipe',
    },
  )
  const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()])
  await child.exited
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(out)
  if (!tps || child.exitCode !== 0) throw new Error(`pgbench failed:\n${out}\n${err}`)
  return Number(tps[1])
}
