import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { openDatabase, type Database } from '../../src/db/client'
import { accounts } from '../../src/db/schema'
import { ensureOperator } from '../../src/accounts/operator'
import { createAccount } from '../../src/accounts/accounts'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { freshServiceEnv, startServiceProcess } from '../support/service-process'

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
        'cannot make the first operator: an account named "admin" exists and is not an operator; set ADMIN_USERNAME to another name',
      )
    } finally {
      await other.close()
    }
  })
})

/** Two real service processes on one empty PostgreSQL database, started together. */
describe.if(testDriver === 'postgres')('two service processes starting at once', () => {
  test('both serve and are ready; exactly one prints the operator login, and that login works on /api/auth/login', async () => {
    const env = await freshServiceEnv('twostart')
    // Workers on, as deployed: each instance also schedules jobs at start-up.
    const [a, b] = [startServiceProcess({ ...env, WORKERS: 'on' }), startServiceProcess({ ...env, WORKERS: 'on' })]
    try {
      const [readyA, readyB] = await Promise.all([a.ready, b.ready])
      if (!readyA || !readyB)
        throw new Error(`a process did not start: ${(await Promise.all([a, b].map((p) => p.stderr()))).join(' | ')}`)
      await Bun.sleep(200) // the operator line follows the listening line
      const logins = [...a.lines, ...b.lines].filter((l) => l.msg.startsWith('Operator login: '))
      expect(logins).toHaveLength(1)
      // Both name the API reference, at an address that answers.
      const references = [...a.lines, ...b.lines].filter((l) => l.msg.startsWith('API reference: '))
      expect(references).toHaveLength(2)
      for (const line of references) expect((await fetch(/^API reference: (\S+)/.exec(line.msg)![1])).status).toBe(200)
      const [, username, password] = /^Operator login: (\S+) \/ (\S+)/.exec(logins[0].msg)!
      for (const service of [a, b]) {
        expect((await fetch(`${service.url}/readyz`)).status).toBe(200)
        const response = await fetch(`${service.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, password }),
        })
        expect(response.status).toBe(200)
      }
      for (const service of [a, b]) service.child.kill('SIGTERM')
      expect(await Promise.all([a.child.exited, b.child.exited])).toEqual([0, 0])
    } finally {
      for (const service of [a, b]) if (service.child.exitCode === null) service.child.kill('SIGKILL')
    }
  }, 120_000)
})
