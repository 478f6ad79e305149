/**
 * The Python client (clients/python) as a user gets it: `pip install ./clients/python` into a fresh virtual
 * environment made with Debian's python3, then test/clients/python/acceptance.py against the real app served on a
 * local port (this file's database: PGlite, or PostgreSQL with DATABASE_URL). The script pages a topic to the end,
 * reads details, searches, follows and resumes the change feed, and waits out a real 429 of a key allowed 2
 * requests a minute: its sleep asks this server to move the app's clock, so the wait costs no time.
 * The environment is kept under the OS temp dir, keyed by a hash of the package's files, so reruns skip the
 * install. Without python3's venv module, or the setuptools and wheel wheels pip builds the package with (CI's
 * machine reaches no Python package index: Debian's python3-venv and python3-wheel-whl, which .ci/run installs),
 * the test says so and is skipped.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { spawnSync } from 'node:child_process'
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store'
import type { Allowance, RateLimitStore } from '../../src/rate-limit/store'
import { serve, type RunningServer } from '../../src/platform/serve'
import { freshDatabase, type TestDatabase } from '../support/database'
import { testApp } from '../support/app'
import { createTestKey, insertClaim, insertPapers, insertStory, linkEntity, paperRow } from '../support/fixtures'
import { insertCountedEntity } from '../support/fixtures-knowledge'
import { refreshEntityCounts } from '../../src/jobs/refresh-entity-counts'
import { runExport } from '../../src/pipeline/exports/run-export'

const PACKAGE = join(import.meta.dir, '../../clients/python')
const WHEELS = '/usr/share/python-wheels' // Debian's: pip, setuptools and (python3-wheel-whl) wheel
const python3 = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'

const run = (command: string, args: string[], env: Record<string, string> = {}) =>
  spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 300_000 })

/** Every file of the package, hashed: a change to any of them makes a new environment. */
function packageHash(): string {
  const hash = createHash('sha256').update('venv --system-site-packages\n')
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name)
      if (name === '__pycache__' || name.endsWith('.egg-info') || name === 'build') continue
      if (statSync(path).isDirectory()) walk(path)
      else hash.update(relative(PACKAGE, path)).update(readFileSync(path))
    }
  }
  walk(PACKAGE)
  return hash.digest('hex').slice(0, 16)
}

/** Why the environment cannot be made here, or null when it can. */
function missingTools(): string | null {
  if (run(python3, ['-c', 'import venv, ensurepip']).status !== 0) {
    return `${python3} has no venv/ensurepip (Debian: apt-get install python3-venv)`
  }
  const wheels = existsSync(WHEELS) ? readdirSync(WHEELS) : []
  for (const name of ['setuptools', 'wheel']) {
    if (!wheels.some((w) => w.startsWith(`${name}-`))) {
      return `no ${name} wheel in ${WHEELS} to build the package offline (Debian: python3-${name}-whl)`
    }
  }
  return null
}

// pip without the machine's own configuration (extra indexes, constraints): only Debian's wheels, no network.
const PIP_ENV = {
  PIP_CONFIG_FILE: '/dev/null',
  PIP_FIND_LINKS: '',
  PIP_NO_INPUT: '1',
  PIP_DISABLE_PIP_VERSION_CHECK: '1',
}

/** A virtual environment with `pip install ./clients/python` done: cached, or made now (atomically, by rename). */
function environment(): string {
  const dir = join(tmpdir(), `geroscope-python-client-${packageHash()}`)
  if (existsSync(join(dir, 'ready'))) return dir
  const building = `${dir}.building-${process.pid}`
  // pip builds a local directory in place (build/, *.egg-info): it builds a copy, so the checkout stays clean.
  const source = `${building}-source`
  rmSync(building, { recursive: true, force: true })
  rmSync(source, { recursive: true, force: true })
  cpSync(PACKAGE, source, { recursive: true, filter: (from) => !/(__pycache__|\.egg-info|\/build)$/.test(from) })
  const steps: [string, string[]][] = [
    // Debian's own packages stay visible: where python3-pandas is installed, the script checks to_dataframe too.
    [python3, ['-m', 'venv', '--system-site-packages', building]],
    [join(building, 'bin/python'), ['-m', 'pip', 'install', '--no-index', '--find-links', WHEELS, source]],
  ]
  for (const [command, args] of steps) {
    const result = run(command, args, PIP_ENV)
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`)
  }
  rmSync(source, { recursive: true, force: true })
  writeFileSync(join(building, 'ready'), new Date().toISOString())
  try {
    renameSync(building, dir)
  } catch {
    rmSync(building, { recursive: true, force: true }) // another run made it meanwhile
  }
  return dir
}

const skipWhy = missingTools()
if (skipWhy) console.log(`test/clients/python.test.ts skipped: ${skipWhy}`)

/** The store the app counts with, where the buckets in `tiny` are allowed 2 requests a minute. */
function withTinyBuckets(store: RateLimitStore, tiny: Set<string>): RateLimitStore {
  const allowance = (bucket: string, given: Allowance): Allowance =>
    tiny.has(bucket) ? { perMinute: 2, perDay: 1000 } : given
  return {
    take: (bucket, given, now, units) => store.take(bucket, allowance(bucket, given), now, units),
    giveBack: (bucket, given, now, units) => store.giveBack(bucket, allowance(bucket, given), now, units),
    close: () => store.close(),
  }
}

/** The senescence papers, newest first. */
const SENESCENCE = ['MED-91007', 'MED-91006', 'MED-91005', 'MED-91004', 'MED-91003', 'MED-91002', 'MED-91001']

describe.skipIf(skipWhy !== null)('the Python client, pip-installed, against the real service', () => {
  let database: TestDatabase
  let server: RunningServer
  let origin = ''
  let clock = new Date('2030-01-15T10:00:30Z')
  let exportDir = ''
  const keys = { pro: '', tiny: '' } // a pro key for the reading, and a member key allowed 2 requests a minute

  beforeAll(async () => {
    database = await freshDatabase()
    const db = database.db
    await insertPapers(db, [
      ...SENESCENCE.map((id, i) =>
        paperRow({
          id,
          doi: `10.1000/py.${i}`,
          topic: 'senescence',
          indexedDate: `2026-10-${String(11 - i).padStart(2, '0')}`,
          title: i === 3 ? 'Klotho protects the ageing kidney' : `Senolytics cleared senescent cells in study ${i}`,
        }),
      ),
      paperRow({ id: 'MED-92001', topic: 'glp-1', indexedDate: '2026-10-01' }),
    ])
    await insertStory(db, 'MED-91005', { headline: 'Old cells, cleared' })
    const chebi = 'CHEBI:9168'
    const rapamycin = await insertCountedEntity(db, 'intervention', chebi, 'rapamycin', 1, { chebi })
    await insertClaim(db, { paperId: 'MED-91005', subjectEntityId: rapamycin.id, objectText: 'lifespan' })
    await linkEntity(db, 'MED-91005', '2026-10-09', rapamycin.id, 'studied')
    await refreshEntityCounts(db)
    exportDir = mkdtempSync(join(tmpdir(), 'geroscope-python-exports-'))
    await runExport(database, { exportDir, publicBaseUrl: 'https://unused.test' })
    const tiny = new Set<string>()
    const limits = withTinyBuckets(await MemoryRateLimitStore.open(database, clock), tiny)
    keys.pro = (await createTestKey(db, { tier: 'pro' })).key
    const member = await createTestKey(db, { tier: 'member' })
    keys.tiny = member.key
    tiny.add(`account:${member.accountId}`)
    for (let attempt = 0; ; attempt++) {
      const port = 20_000 + Math.floor(Math.random() * 40_000)
      origin = `http://127.0.0.1:${port}`
      const env = { PUBLIC_BASE_URL: origin, EXPORT_DIR: exportDir }
      const app = await testApp(database, { now: () => clock, limits }, env)
      // The script's hooks: move the app's clock (its sleep), and make a change for the feed to report.
      const handle = async (request: Request) => {
        const url = new URL(request.url)
        if (url.pathname === '/test-control/advance') {
          clock = new Date(clock.getTime() + Number(url.searchParams.get('seconds')) * 1000)
          return new Response('ok')
        }
        if (url.pathname === '/test-control/add-paper') {
          const id = url.searchParams.get('id')!
          await insertPapers(db, [paperRow({ id, topic: 'senescence', indexedDate: '2026-10-20' })])
          return new Response('ok')
        }
        return app.handle(request)
      }
      try {
        server = serve(handle, port)
        break
      } catch (error) {
        if (attempt > 5) throw error
      }
    }
  })

  afterAll(async () => {
    await server?.stop(true)
    await database?.close()
    if (exportDir) rmSync(exportDir, { recursive: true, force: true })
  })

  test('pip install ./clients/python, then the acceptance script passes', async () => {
    const venv = environment()
    const given = {
      base_url: origin,
      control: `${origin}/test-control`,
      key: keys.pro,
      tiny_key: keys.tiny,
      senescence: SENESCENCE,
      detail_id: 'MED-91005',
      klotho_id: 'MED-91004',
      new_id: 'MED-93001',
      total: 8,
    }
    // Run asynchronously: the server answering the script lives in this process.
    const script = join(import.meta.dir, 'python/acceptance.py')
    const child = Bun.spawn([join(venv, 'bin/python'), script, JSON.stringify(given)], {
      stdout: 'pipe',
      stderr: 'pipe',
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    })
    const [stdout, stderr, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ])
    if (code !== 0) console.log(stdout, stderr)
    expect(code).toBe(0)
    const summary = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      paged: string[]
      feed: { first: number; resumed: string[] }
      waits: number[]
      pandas: boolean
      types: Record<string, string[]>
    }
    expect(summary.paged).toEqual(SENESCENCE)
    expect(summary.feed).toEqual({ first: SENESCENCE.length, resumed: ['MED-93001'] })
    expect(summary.waits).toEqual([30])
    // to_dataframe was checked on a real DataFrame where Debian's pandas is installed, else its ImportError was
    expect(summary.pandas).toBe(run(python3, ['-c', 'import pandas']).status === 0)

    // The TypedDicts name the fields of the served document's schemas, in its order.
    type Document = { components: { schemas: Record<string, { properties: object }> } }
    const doc = (await (await fetch(`${origin}/api/v1/openapi.json`)).json()) as Document
    for (const [name, fields] of Object.entries(summary.types)) {
      expect({ name, fields }).toEqual({ name, fields: Object.keys(doc.components.schemas[name].properties) })
    }
    expect(Object.keys(summary.types).length).toBeGreaterThanOrEqual(20)
  }, 600_000)
})
