/**
 * The same service on Deno (`npm run start:deno`, src/deno.ts): start it on the run's driver (an
 * embedded PGlite data dir, or PostgreSQL), log in on the admin interface with an operator Bun made
 * (its argon2id hash written by Bun.password), get a key there, page /api/v1/papers and search; an
 * account Deno makes (hash-wasm) then verifies with Bun.password. Runs whenever the deno binary is installed (the `deno` devDependency).
 */
import { describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { eq } from 'drizzle-orm'
import { parseConfig } from '../../src/config'
import { openConfiguredDatabase } from '../../src/lifecycle/open-database'
import { accounts } from '../../src/db/schema'
import { ensureOperator } from '../../src/accounts/operator'
import { createKey } from '../../src/accounts/keys'
import { runExport } from '../../src/pipeline/exports/run-export'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { testDriver } from '../support/database'
import { insertPapers, paperRow } from '../support/fixtures'
import { freshServiceEnv, startServiceProcess } from '../support/service-process'

const DENO = 'node_modules/.bin/deno'
const installed = existsSync(DENO)
if (!installed) console.log('deno smoke test left out: node_modules/.bin/deno is missing (npm ci installs it)')

/** The command `npm run start:deno` runs, from package.json, so the test starts what operators start. */
function startDenoCommand(): string[] {
  const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts[
    'start:deno'
  ]
  return script.split(/\s+/).map((part) => (part === 'deno' ? DENO : part))
}

describe.if(installed)(`the service on Deno, on ${testDriver}`, () => {
  test('starts, logs in as an operator Bun made, gets a key, pages /api/v1/papers and searches', async () => {
    const env = await freshServiceEnv('deno')
    const rows = [paperRow(), paperRow(), paperRow()]
    const password = 'a long operator password'
    let proKey = ''
    const seeded = await openConfiguredDatabase(parseConfig({ ...env, NODE_ENV: 'test' }), 1) // migrated by Bun, served by Deno
    try {
      await insertPapers(seeded.db, rows)
      expect(await ensureOperator(seeded.db, { adminUsername: 'admin', adminPassword: password })).not.toBeNull()
      const [operator] = await seeded.db
        .select({ hash: accounts.passwordHash })
        .from(accounts)
        .where(eq(accounts.username, 'admin'))
      expect(operator.hash).toStartWith('$argon2id$v=19$m=65536,t=2,p=1$') // Bun.password's, not a Deno-readable stand-in
      // A bulk export made by Bun into the default EXPORT_DIR (DATA_DIR/exports), for Deno to serve.
      await runExport(seeded, { exportDir: join(env.DATA_DIR, 'exports'), publicBaseUrl: 'http://localhost' })
      proKey = (await createKey(seeded.db, 'admin', 'pro', 'deno exports')).key
    } finally {
      await seeded.close()
    }
    const service = startServiceProcess(env, startDenoCommand()) // no ADMIN_PASSWORD: the operator exists already
    try {
      if (!(await service.ready)) throw new Error(`deno did not start: ${await service.stderr()}`)
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200)

      const login = await fetch(`${service.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password }),
      })
      expect(login.status).toBe(200)
      expect((await login.json()).data.user).toMatchObject({ username: 'admin', role: 'admin' })
      const cookie = login.headers.get('set-cookie')!.split(';')[0]
      const created = await fetch(`${service.url}/api/keys`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ label: 'deno smoke' }),
      })
      expect(created.status).toBe(201)
      const { key } = (await created.json()).data
      const auth = { headers: { authorization: `Bearer ${key}` } }

      const first = await fetch(`${service.url}/api/v1/papers?limit=2`, auth)
      expect(first.status).toBe(200)
      const page1 = await first.json()
      expect(page1.data).toHaveLength(2)
      const second = await fetch(
        `${service.url}/api/v1/papers?limit=2&cursor=${encodeURIComponent(page1.pagination.next_cursor)}`,
        auth,
      )
      const page2 = await second.json()
      expect(page2.data).toHaveLength(1)
      const ids = [...page1.data, ...page2.data].map((p: { id: string }) => p.id).sort()
      expect(ids).toEqual(rows.map((r) => r.id).sort())

      const search = await fetch(`${service.url}/api/v1/search?q=rapamycin&limit=5`, auth)
      expect(search.status).toBe(200)
      expect((await search.json()).data).toHaveLength(3)

      // Export files stream from disk through a web-standard ReadableStream, whole and in ranges.
      const pro = { headers: { authorization: `Bearer ${proKey}` } }
      const listed = (await (await fetch(`${service.url}/api/v1/exports`, pro)).json()).data
      expect(listed.map((f: { resource: string; count: number }) => [f.resource, f.count])).toEqual([
        ['papers', 3],
        ['stories', 0],
        ['entities', 0],
        ['claims', 0],
      ])
      const path = new URL(listed[0].url).pathname
      const whole = await fetch(`${service.url}${path}`, pro)
      expect(whole.status).toBe(200)
      expect(
        createHash('sha256')
          .update(new Uint8Array(await whole.arrayBuffer()))
          .digest('hex'),
      ).toBe(listed[0].sha256)
      const part = await fetch(`${service.url}${path}`, { headers: { ...pro.headers, range: 'bytes=2-11' } })
      expect([part.status, part.headers.get('content-range'), (await part.arrayBuffer()).byteLength]).toEqual([
        206,
        `bytes 2-11/${listed[0].bytes}`,
        10,
      ])

      const wrong = await fetch(`${service.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'not the password' }),
      })
      expect(wrong.status).toBe(401)
      const member = await fetch(`${service.url}/api/accounts`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'made-on-deno', password: 'a member password', role: 'member' }),
      })
      expect(member.status).toBe(201)

      service.child.kill('SIGTERM')
      expect(await service.child.exited).toBe(0)
      expect(service.lines.at(-1)?.msg).toBe('stopped')

      const after = await openConfiguredDatabase(parseConfig({ ...env, NODE_ENV: 'test' }), 1)
      try {
        const [made] = await after.db
          .select({ hash: accounts.passwordHash })
          .from(accounts)
          .where(eq(accounts.username, 'made-on-deno'))
        expect(made.hash).toStartWith('$argon2id$v=19$m=65536,t=2,p=1$')
        expect(await Bun.password.verify('a member password', made.hash)).toBe(true) // Deno's hash, Bun's check
      } finally {
        await after.close()
      }
    } finally {
      if (service.child.exitCode === null) service.child.kill('SIGKILL')
    }
  }, 180_000)
})
