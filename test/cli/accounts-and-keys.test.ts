import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { accounts, apiKeys } from '../../src/db/schema'
import { authenticate } from '../../src/accounts/accounts'
import { hashSecret, parseApiKey } from '../../src/accounts/key-format'
import { resumeSession, startSession } from '../../src/accounts/sessions'
import { cli } from '../support/cli'
import { freshDatabase, type TestDatabase } from '../support/database'

let database: TestDatabase
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(async () => {
  await database.close()
})

describe('cli accounts', () => {
  test('create makes an account whose password is stored only as a slow hash', async () => {
    const result = await cli(
      database,
      'accounts',
      'create',
      '--username',
      'ada',
      '--password',
      'correct horse',
      '--role',
      'member',
    )
    expect(result).toMatchObject({ code: 0, stderr: [] })
    expect(result.stdout[0]).toContain('account "ada" created')
    const [row] = await database.db.select().from(accounts).where(eq(accounts.username, 'ada'))
    expect(row).toMatchObject({ role: 'member', membership: 'active' })
    expect(row.passwordHash).toStartWith('$argon2id$')
    expect(await authenticate(database.db, 'ADA', 'correct horse')).toMatchObject({ username: 'ada' })
    expect(await authenticate(database.db, 'ada', 'wrong horse!')).toBeNull()
  })

  test('create takes a membership and refuses a duplicate name in any case', async () => {
    const lapsed = await cli(
      database,
      'accounts',
      'create',
      '--username',
      'bob',
      '--password',
      'bob-password',
      '--role',
      'admin',
      '--membership',
      'lapsed',
    )
    expect(lapsed.code).toBe(0)
    const duplicate = await cli(
      database,
      'accounts',
      'create',
      '--username',
      'BOB',
      '--password',
      'bob-password',
      '--role',
      'member',
    )
    expect(duplicate).toEqual({ code: 1, stdout: [], stderr: ['error: an account named "BOB" already exists'] })
  })

  test('membership changes the status', async () => {
    const result = await cli(database, 'accounts', 'membership', '--username', 'ada', '--status', 'lapsed')
    expect(result.stdout).toEqual(['membership of "ada" is now lapsed'])
    const [row] = await database.db.select().from(accounts).where(eq(accounts.username, 'ada'))
    expect(row.membership).toBe('lapsed')
    await cli(database, 'accounts', 'membership', '--username', 'ada', '--status', 'active')
  })

  test.each([
    [
      'a missing flag',
      ['accounts', 'create', '--username', 'x1y', '--role', 'member'],
      'error: --password is required',
      2,
    ],
    [
      'a bad role',
      ['accounts', 'create', '--username', 'x1y', '--password', 'long enough', '--role', 'root'],
      'error: --role must be one of admin, member (got "root")',
      2,
    ],
    ['an unknown flag', ['accounts', 'create', '--user', 'x'], 'error: unknown option --user', 2],
    [
      'a short password',
      ['accounts', 'create', '--username', 'x1y', '--password', 'short', '--role', 'member'],
      'error: password must be at least 10 characters long',
      1,
    ],
    [
      'an unknown account',
      ['accounts', 'membership', '--username', 'nobody', '--status', 'active'],
      'error: no account named "nobody"',
      1,
    ],
    [
      'a bad status',
      ['accounts', 'membership', '--username', 'ada', '--status', 'paused'],
      'error: --status must be one of active, lapsed (got "paused")',
      2,
    ],
    ['an unknown command', ['accounts', 'delete'], 'error: unknown command "accounts delete"', 2],
  ])('fails on %s with one line on stderr', async (_name, argv, message, code) => {
    const result = await cli(database, ...(argv as string[]))
    expect(result.code).toBe(code as number)
    expect(result.stdout).toEqual([])
    expect(result.stderr).toHaveLength(1)
    expect(result.stderr[0]).toStartWith(message as string)
  })
})

describe('cli keys', () => {
  test('create prints the plain key as the last line and stores only its hash', async () => {
    const result = await cli(database, 'keys', 'create', '--username', 'ada', '--tier', 'pro')
    expect(result.code).toBe(0)
    const key = result.stdout.at(-1)!
    const parsed = parseApiKey(key)
    expect(parsed).not.toBeNull()
    const [row] = await database.db.select().from(apiKeys).where(eq(apiKeys.id, parsed!.id))
    expect(row).toMatchObject({ tier: 'pro', secretHash: hashSecret(parsed!.secret), revokedAt: null })
    expect(JSON.stringify(row)).not.toContain(parsed!.secret)
  })

  test("list shows every key, or one account's keys", async () => {
    await cli(database, 'keys', 'create', '--username', 'bob', '--tier', 'member')
    const all = await cli(database, 'keys', 'list')
    expect(all.stdout).toHaveLength(2)
    const bobs = await cli(database, 'keys', 'list', '--username', 'bob')
    expect(bobs.stdout).toHaveLength(1)
    expect(bobs.stdout[0]).toMatch(/^[0-9A-Za-z]{8}\tbob\tmember\tactive\t/)
  })

  test('revoke marks the key revoked, and says so again without changing the time', async () => {
    const key = (await cli(database, 'keys', 'create', '--username', 'bob', '--tier', 'member')).stdout.at(-1)!
    const id = parseApiKey(key)!.id
    expect((await cli(database, 'keys', 'revoke', '--id', id)).stdout).toEqual([`key ${id} revoked`])
    const [first] = await database.db.select().from(apiKeys).where(eq(apiKeys.id, id))
    expect(first.revokedAt).toBeInstanceOf(Date)
    const again = await cli(database, 'keys', 'revoke', '--id', id)
    expect(again.code).toBe(0)
    expect(again.stdout[0]).toContain('was already revoked')
    const [second] = await database.db.select().from(apiKeys).where(eq(apiKeys.id, id))
    expect(second.revokedAt!.getTime()).toBe(first.revokedAt!.getTime())
    expect(
      (await cli(database, 'keys', 'list', '--username', 'bob')).stdout.some((l) =>
        l.startsWith(`${id}\tbob\tmember\trevoked`),
      ),
    ).toBe(true)
  })

  test.each([
    [
      'an unknown account',
      ['keys', 'create', '--username', 'nobody', '--tier', 'pro'],
      'error: no account named "nobody"',
    ],
    [
      'a bad tier',
      ['keys', 'create', '--username', 'ada', '--tier', 'gold'],
      'error: --tier must be one of member, pro (got "gold")',
    ],
    [
      'a malformed id',
      ['keys', 'revoke', '--id', "x' or 1=1"],
      'error: a key id is the 8 letters and digits after "grk_"',
    ],
    ['an unknown id', ['keys', 'revoke', '--id', 'ZZZZZZZZ'], 'error: no key with id "ZZZZZZZZ"'],
  ])('fails on %s with one line on stderr', async (_name, argv, message) => {
    const result = await cli(database, ...(argv as string[]))
    expect(result.code).not.toBe(0)
    expect(result.stderr).toEqual([message as string])
  })
})

describe('cli accounts password, disable, enable, end-sessions', () => {
  const create = (username: string, role: string) =>
    cli(database, 'accounts', 'create', '--username', username, '--password', 'first password here', '--role', role)
  const REFUSED = 'its API keys are refused within 2 seconds'
  const policy = { idleMs: 30 * 60_000, maxMs: 12 * 3_600_000 }
  const sessionOf = async (username: string) => {
    const account = (await authenticate(database.db, username, 'first password here'))!
    return (await startSession(database.db, account, new Date(), policy)).token
  }
  const alive = async (token: string) => (await resumeSession(database.db, token, new Date(), policy)) !== null

  test('password sets a new slow hash and ends every session of the account', async () => {
    await create('carol', 'member')
    const sessions = [await sessionOf('carol'), await sessionOf('carol')]
    const result = await cli(database, 'accounts', 'password', '--username', 'CAROL', '--password', 'second password 2')
    expect(result).toEqual({ code: 0, stdout: ['password of "carol" set; 2 sessions ended'], stderr: [] })
    for (const token of sessions) expect(await alive(token)).toBe(false)
    expect(await authenticate(database.db, 'carol', 'first password here')).toBeNull()
    expect(await authenticate(database.db, 'carol', 'second password 2')).toMatchObject({ username: 'carol' })
    const [row] = await database.db.select().from(accounts).where(eq(accounts.username, 'carol'))
    expect(row.passwordHash).toStartWith('$argon2id$')
  })

  test('disable ends the sessions, refuses logins and keys; enable lets the account back in', async () => {
    await create('dave', 'member')
    const token = await sessionOf('dave')
    const disabled = await cli(database, 'accounts', 'disable', '--username', 'dave')
    expect(disabled).toEqual({
      code: 0,
      stdout: [`account "dave" disabled; 1 session ended; ${REFUSED}`],
      stderr: [],
    })
    expect(await alive(token)).toBe(false)
    expect(await authenticate(database.db, 'dave', 'first password here')).toBeNull()
    const [row] = await database.db.select().from(accounts).where(eq(accounts.username, 'dave'))
    expect(row.disabledAt).toBeInstanceOf(Date)
    expect((await cli(database, 'accounts', 'disable', '--username', 'dave')).stdout[0]).toBe(
      `account "dave" disabled (already, since ${row.disabledAt!.toISOString()}); 0 sessions ended; ${REFUSED}`,
    )
    const enabled = await cli(database, 'accounts', 'enable', '--username', 'dave')
    expect(enabled).toEqual({ code: 0, stdout: ['account "dave" enabled'], stderr: [] })
    expect(await authenticate(database.db, 'dave', 'first password here')).toMatchObject({ username: 'dave' })
    const again = await cli(database, 'accounts', 'enable', '--username', 'dave')
    expect(again.stdout).toEqual(['account "dave" was not disabled'])
  })

  test('end-sessions ends them all and leaves the password', async () => {
    await create('erin', 'admin')
    const tokens = [await sessionOf('erin'), await sessionOf('erin'), await sessionOf('erin')]
    const ended = await cli(database, 'accounts', 'end-sessions', '--username', 'erin')
    expect(ended).toEqual({ code: 0, stdout: ['3 sessions of "erin" ended'], stderr: [] })
    for (const token of tokens) expect(await alive(token)).toBe(false)
    expect(await authenticate(database.db, 'erin', 'first password here')).not.toBeNull()
  })

  test.each([
    [
      'a short password',
      ['accounts', 'password', '--username', 'carol', '--password', 'short'],
      'error: password must be at least 10 characters long',
      1,
    ],
    [
      'an unknown account',
      ['accounts', 'password', '--username', 'nobody', '--password', 'long enough here'],
      'error: no account named "nobody"',
      1,
    ],
    ['no password', ['accounts', 'password', '--username', 'carol'], 'error: --password is required', 2],
    [
      'an unknown account to disable',
      ['accounts', 'disable', '--username', 'nobody'],
      'error: no account named "nobody"',
      1,
    ],
    ['no username', ['accounts', 'disable'], 'error: --username is required', 2],
  ])('fails on %s with one line on stderr', async (_name, argv, message, code) => {
    const result = await cli(database, ...(argv as string[]))
    expect(result).toEqual({ code: code as number, stdout: [], stderr: [message as string] })
  })
})
