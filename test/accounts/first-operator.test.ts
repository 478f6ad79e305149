import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import postgres from 'postgres'
import { openDatabase, type Database } from '../../src/db/client'
import { accounts } from '../../src/db/schema'
import { ensureOperator } from '../../src/modules/accounts/operator'
import { createAccount } from '../../src/modules/accounts/service'
import { databaseUrl, freshDatabase, scratchDatabaseName, testDriver, type TestDatabase } from '../support/database'

const config = { adminUsername: 'admin', adminPassword: null }

describe(`ensureOperator on ${testDriver}`, () => {
  let database: TestDatabase
  let second: Database
  beforeAll(async () => {
    database = await freshDatabase()
    second = database.url ? await openDatabase({ kind: 'postgres', url: database.url, max: 2 }) : database
  })
  afterAll(async () => {
    if (second !== database) await second.close()
    await database.close()
  })

  test('two instances starting at once on an empty database: one makes the operator, the other carries on', async () => {
    const results = await Promise.all([ensureOperator(database.db, config), ensureOperator(second.db, config)])
    expect(results.filter((r) => r !== null)).toHaveLength(1)
    expect(results.find((r) => r !== null)).toMatchObject({ username: 'admin', generated: true })
    const admins = await database.db.select().from(accounts).where(eq(accounts.role, 'admin'))
    expect(admins).toHaveLength(1)
    expect(await ensureOperator(database.db, config)).toBeNull() // and later starts leave it alone
  })

  test('an account of that name that is not an operator stops start-up with a clear message', async () => {
    const other = await freshDatabase()
    try {
      await createAccount(other.db, { username: 'admin', password: 'a member password', role: 'member' })
      await expect(ensureOperator(other.db, config)).rejects.toThrow(
        'cannot make the first operator: an account named "admin" exists and is not an operator; set ADMIN_USERNAME to another name')
    } finally {
      await other.close()
    }
  })
})

/** Two real service processes on one empty PostgreSQL database, started together. */
describe.if(testDriver === 'postgres')('two service processes starting at once', () => {
  let url: string
  beforeAll(async () => {
    const name = scratchDatabaseName('twostart')
    const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create database "${name}"`)
    await admin.end()
    url = databaseUrl(name)
  })

  async function start(port: number) {
    const child = Bun.spawn([process.execPath, 'src/index.ts'], {
      env: { ...process.env, DATABASE_URL: url, PORT: String(port), WORKERS: 'off', DEMO_DATA: 'off', APP_SECRET: 'x'.repeat(40), ADMIN_PASSWORD: '' },
      stdout: 'pipe', stderr: 'pipe',
    })
    const lines: string[] = []
    let listening: (started: boolean) => void = () => {}
    const ready = new Promise<boolean>((resolve) => { listening = resolve })
    void (async () => { // reads every line the process prints, for as long as it runs
      const decoder = new TextDecoder()
      let buffer = ''
      for await (const chunk of child.stdout) {
        buffer += decoder.decode(chunk)
        const parts = buffer.split('\n')
        buffer = parts.pop()!
        lines.push(...parts)
        if (parts.some((l) => l.startsWith('Geroscope is listening'))) listening(true)
      }
      listening(false)
    })()
    return { child, lines, ready }
  }

  test('both serve; exactly one prints the operator login, and that login works on /api/auth/login', async () => {
    const ports = [20000 + (process.pid % 5000) * 2, 20001 + (process.pid % 5000) * 2]
    const [a, b] = await Promise.all(ports.map(start))
    try {
      const [readyA, readyB] = await Promise.all([a.ready, b.ready])
      if (!readyA || !readyB) {
        for (const p of [a, b]) p.child.kill('SIGTERM')
        const stderr = await Promise.all([a, b].map((p) => new Response(p.child.stderr).text()))
        throw new Error(`a process did not start: ${stderr.join(' | ')}`)
      }
      await Bun.sleep(200) // the operator line follows the listening line
      const logins = [...a.lines, ...b.lines].filter((l) => l.startsWith('Operator login: '))
      expect(logins).toHaveLength(1)
      // Both name the API reference, at an address that answers.
      const references = [...a.lines, ...b.lines].filter((l) => l.startsWith('API reference: '))
      expect(references).toHaveLength(2)
      for (const line of references) expect((await fetch(/^API reference: (\S+)/.exec(line)![1])).status).toBe(200)
      const [, username, password] = /^Operator login: (\S+) \/ (\S+)/.exec(logins[0])!
      for (const port of ports) {
        const response = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }),
        })
        expect(response.status).toBe(200)
      }
    } finally {
      a.child.kill('SIGTERM')
      b.child.kill('SIGTERM')
      await Promise.all([a.child.exited, b.child.exited])
    }
  }, 120_000)
})
