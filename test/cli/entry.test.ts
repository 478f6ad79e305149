import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { databaseUrl, scratchDatabaseName, testDriver } from '../support/database'

// The real entry point, as operators run it: a fresh embedded data dir, or a fresh PostgreSQL database.
let env: Record<string, string>
let dataDir: string

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'geroscope-cli-'))
  env = { DATA_DIR: dataDir, DATABASE_URL: '' }
  if (testDriver === 'postgres') {
    const name = scratchDatabaseName('cli')
    const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create database "${name}"`)
    await admin.end()
    env.DATABASE_URL = databaseUrl(name)
  }
})
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true })
})

async function run(...argv: string[]) {
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
  return { code, stdout: stdout.trim().split('\n').filter(Boolean), stderr: stderr.trim().split('\n').filter(Boolean) }
}

describe(`bun run cli on ${testDriver}`, () => {
  test('migrate, create an account and a key, list and revoke it', async () => {
    expect(await run('migrate')).toMatchObject({ code: 0, stdout: ['migrations applied'] })
    expect(
      (await run('accounts', 'create', '--username', 'operator', '--password', 'a long password', '--role', 'admin'))
        .code,
    ).toBe(0)
    const created = await run('keys', 'create', '--username', 'operator', '--tier', 'pro')
    expect(created.code).toBe(0)
    const key = created.stdout.at(-1)!
    expect(key).toMatch(/^grk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/)
    const id = key.slice(4, 12)
    expect((await run('keys', 'list')).stdout[0]).toStartWith(`${id}\toperator\tpro\tactive`)
    expect(await run('keys', 'revoke', '--id', id)).toMatchObject({ code: 0, stdout: [`key ${id} revoked`] })
  }, 240_000) // five processes, each opening the embedded database: minutes on a loaded machine

  test('fails with a non-zero exit and one line on stderr', async () => {
    expect(await run('keys', 'revoke', '--id', 'nope')).toEqual({
      code: 1,
      stdout: [],
      stderr: ['error: a key id is the 8 letters and digits after "grk_"'],
    })
    expect(await run('frobnicate')).toMatchObject({
      code: 2,
      stderr: ['error: unknown command "frobnicate" (run "bun run cli help")'],
    })
    const badConfig = Bun.spawn([process.execPath, 'scripts/cli.ts', 'migrate'], {
      env: { ...process.env, ...env, DATABASE_URL: 'mysql://x/y' },
      stderr: 'pipe',
    })
    expect(await badConfig.exited).toBe(1)
    expect((await new Response(badConfig.stderr).text()).trim()).toBe(
      'Invalid configuration: DATABASE_URL must start with postgres:// or postgresql:// (got "mysql://")',
    )
  })
})
