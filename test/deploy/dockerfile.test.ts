/**
 * The Dockerfile, which .ci/image-test builds and runs in a container after the suites: linted
 * (dockerfile-utils, the linter behind the Docker language server), held to what the image promises
 * (official base images unless told otherwise, production dependencies only, non-root, HEALTHCHECK
 * on /readyz, a volume for the embedded database), and its start command run the way the image runs
 * it: the files its COPY lines take, a production-only `npm ci --omit=dev`, its ENV,
 * NODE_ENV=production, nothing of this process's environment.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { validate, ValidationSeverity } from 'dockerfile-utils'
import { testDriver } from '../support/database'
import { freshServiceEnv, startServiceProcess } from '../support/service-process'

const dockerfile = readFileSync('Dockerfile', 'utf8')

type Instruction = { keyword: string; args: string }

/**
 * The instructions, continuation lines joined and comments dropped, split into build stages; the
 * ARGs before the first FROM (the build arguments FROM lines may use) come first, as stage 0.
 */
function stages(text: string): Instruction[][] {
  const joined = text
    .replace(/\\\r?\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
  const result: Instruction[][] = [[]]
  for (const line of joined) {
    const [, keyword, args] = /^(\S+)\s*(.*)$/.exec(line)!
    if (keyword.toUpperCase() === 'FROM') result.push([])
    result.at(-1)!.push({ keyword: keyword.toUpperCase(), args: args.trim() })
  }
  return result
}

const [globalArgs, ...all] = stages(dockerfile)
const args = (stage: Instruction[], keyword: string) => stage.filter((i) => i.keyword === keyword).map((i) => i.args)
/** A stage's base image as built by default: a build argument in FROM replaced by its default. */
function defaultBase(stage: Instruction[]): string {
  const image = args(stage, 'FROM')[0].split(/\s+/)[0]
  return image.replace(/^\$\{(\w+)\}$/, (_, name: string) => {
    const arg = globalArgs.find((i) => i.keyword === 'ARG' && i.args.startsWith(`${name}=`))
    if (!arg) throw new Error(`FROM uses \${${name}}, which has no default`)
    return arg.args.slice(name.length + 1)
  })
}
const runtime = all.at(-1)!

describe('the Dockerfile', () => {
  test('passes the linter with every rule an error', () => {
    const strict = Object.fromEntries(
      [
        'deprecatedMaintainer',
        'directiveCasing',
        'emptyContinuationLine',
        'instructionCasing',
        'instructionCmdMultiple',
        'instructionEntrypointMultiple',
        'instructionHealthcheckMultiple',
        'instructionJSONInSingleQuotes',
        'instructionWorkdirRelative',
      ].map((rule) => [rule, ValidationSeverity.ERROR]),
    )
    expect(validate(dockerfile, strict)).toEqual([])
    // The linter does find problems: a broken file is not passed.
    expect(validate('FROM\nEXPOSE port\nCMD ["bun"]\nCMD ["bun"]\n', strict).length).toBeGreaterThanOrEqual(3)
  })

  test('multi-stage, the runtime on the official Bun image at the version the project tests with', () => {
    expect(all.length).toBeGreaterThanOrEqual(2)
    const bun = (
      JSON.parse(readFileSync('package.json', 'utf8')) as { devDependencies: Record<string, string> }
    ).devDependencies.bun.replace(/^\^/, '')
    expect(defaultBase(runtime)).toStartWith(`oven/bun:${bun}`)
    expect(defaultBase(all[0])).toMatch(/^node:\d+-bookworm-slim$/)
  })

  test('each base image is a build argument, official by default (.ci/image-test passes local ones)', () => {
    expect(all.map((stage) => args(stage, 'FROM')[0])).toEqual(['${NODE_IMAGE} AS deps', '${BUN_IMAGE} AS runtime'])
    expect(globalArgs.map((i) => `${i.keyword} ${i.args}`)).toEqual([
      `ARG NODE_IMAGE=${defaultBase(all[0])}`,
      `ARG BUN_IMAGE=${defaultBase(runtime)}`,
    ])
  })

  test('production dependencies only, a non-root user, a volume for the embedded database, a readiness HEALTHCHECK', () => {
    expect(all.flatMap((s) => args(s, 'RUN')).some((r) => r.includes('npm ci --omit=dev'))).toBe(true)
    expect(args(runtime, 'USER')).toEqual(['bun'])
    expect(args(runtime, 'VOLUME')).toEqual(['["/data"]'])
    expect(args(runtime, 'ENV').join(' ')).toContain('DATA_DIR=/data')
    expect(args(runtime, 'HEALTHCHECK')[0]).toContain('/readyz')
    expect(JSON.parse(args(runtime, 'CMD')[0])).toEqual(['bun', 'src/index.ts'])
  })
})

/** The runtime stage's ENV lines as variables (KEY=value pairs). */
function imageEnv(): Record<string, string> {
  const env: Record<string, string> = {}
  for (const line of args(runtime, 'ENV')) for (const [, key, value] of line.matchAll(/(\w+)=(\S+)/g)) env[key] = value
  return env
}

describe(`the image's start command, run as the image runs it, on ${testDriver}`, () => {
  const app = mkdtempSync(join(tmpdir(), 'geroscope-image-'))
  afterAll(() => rm(app, { recursive: true, force: true }), 120_000) // a production node_modules: slow to delete on a busy disk

  test('a production-only install serves, and /readyz says ready', async () => {
    // The deps stage: the lockfile, the patches, npm ci --omit=dev.
    for (const file of ['package.json', 'package-lock.json', 'patches'])
      cpSync(file, join(app, file), { recursive: true })
    const install = Bun.spawn(['npm', 'ci', '--omit=dev', '--no-audit', '--no-fund'], {
      cwd: app,
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [code, installErr] = await Promise.all([install.exited, new Response(install.stderr).text()])
    if (code !== 0) throw new Error(`npm ci --omit=dev failed: ${installErr}`)
    // The runtime stage's COPY lines from the build context (node_modules came from the deps stage).
    for (const copy of args(runtime, 'COPY').filter((c) => !c.startsWith('--from'))) {
      const [source, target] = copy.split(/\s+/)
      const to = join(app, target.replace(/^\.\//, ''), target.endsWith('/') ? basename(source) : '')
      mkdirSync(dirname(to), { recursive: true })
      cpSync(source, to, { recursive: true })
    }
    // No development dependency at run time (the lockfile marks them "dev").
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
      packages: Record<string, { dev?: boolean }>
    }
    const devOnly = Object.entries(lock.packages)
      .filter(([path, p]) => path.startsWith('node_modules/') && p.dev)
      .map(([path]) => path)
    expect(devOnly.length).toBeGreaterThan(20)
    expect(devOnly.filter((path) => existsSync(join(app, path)))).toEqual([])
    for (const tool of ['drizzle-kit', 'bun', 'deno', 'playwright-core'])
      expect(existsSync(join(app, 'node_modules', tool))).toBe(false)

    const database = await freshServiceEnv('image')
    const env: Record<string, string> = {
      ...imageEnv(),
      DATA_DIR: join(app, 'data'), // the image's /data volume
      APP_SECRET: 'an-image-secret-that-is-long-enough-0123456789',
      ...(database.DATABASE_URL ? { DATABASE_URL: database.DATABASE_URL } : {}),
    }
    expect(env.NODE_ENV).toBe('production')
    const [runtimeCommand, ...rest] = JSON.parse(args(runtime, 'CMD')[0]) as string[]
    expect(runtimeCommand).toBe('bun')
    const service = startServiceProcess(env, [process.execPath, ...rest], { cwd: app, exactEnv: true })
    try {
      if (!(await service.ready)) throw new Error(`the image's command did not start: ${await service.stderr()}`)
      const ready = await fetch(`${service.url}/readyz`)
      expect(ready.status).toBe(200)
      expect((await ready.json()).data).toMatchObject({ status: 'ready', database: { driver: testDriver } })
      expect((await fetch(`${service.url}/api/v1/papers`)).status).toBe(401) // the app, not just the probe
      service.child.kill('SIGTERM')
      expect(await service.child.exited).toBe(0)
    } finally {
      if (service.child.exitCode === null) service.child.kill('SIGKILL')
    }
  }, 600_000)
})
