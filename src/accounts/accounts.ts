/** Accounts: operators (admin) and paid account holders (member), with their membership status. */
import { randomBytes } from 'node:crypto'
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { accounts } from '../db/schema'
import { conflicting, invalidInput, nothingFound } from '../domain-errors'
import { hashPassword, verifyPassword } from '../platform/password'
import { endSessionsOf } from './account-sessions'
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './password-rules'

export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH }

export const ROLES = ['admin', 'member'] as const
export const MEMBERSHIPS = ['active', 'lapsed'] as const
export type Role = (typeof ROLES)[number]
export type Membership = (typeof MEMBERSHIPS)[number]

export type Account = {
  id: number
  username: string
  role: Role
  membership: Membership
  createdAt: Date
  disabledAt: Date | null // see src/accounts/account-disable.ts
}

const USERNAME = /^[A-Za-z0-9_.-]{3,64}$/
export const USERNAME_RULE = 'username must be 3 to 64 letters, digits, ".", "_" or "-"'

/** Usernames are unique and matched without regard to case. */
const sameUsername = (username: string) => sql`lower(${accounts.username}) = lower(${username})`

const publicColumns = {
  id: accounts.id,
  username: accounts.username,
  role: accounts.role,
  membership: accounts.membership,
  createdAt: accounts.createdAt,
  disabledAt: accounts.disabledAt,
}

export type NewAccount = { username: string; password: string; role: Role; membership?: Membership }

/** Validates and inserts an account; null when the username is taken (whatever its case). */
export async function insertAccount(db: Db, input: NewAccount): Promise<Account | null> {
  if (!USERNAME.test(input.username)) throw invalidInput(USERNAME_RULE)
  if (input.password.length < MIN_PASSWORD_LENGTH) {
    throw invalidInput(`password must be at least ${MIN_PASSWORD_LENGTH} characters long`)
  }
  if (input.password.length > MAX_PASSWORD_LENGTH) {
    throw invalidInput(`password must be at most ${MAX_PASSWORD_LENGTH} characters long`)
  }
  if (!ROLES.includes(input.role)) throw invalidInput('role must be admin or member')
  const membership = input.membership ?? 'active'
  if (!MEMBERSHIPS.includes(membership)) throw invalidInput('membership must be active or lapsed')
  const passwordHash = await hashPassword(input.password)
  const [row] = await db
    .insert(accounts)
    .values({ username: input.username, passwordHash, role: input.role, membership })
    .onConflictDoNothing()
    .returning(publicColumns)
  return (row as Account) ?? null
}

export async function createAccount(db: Db, input: NewAccount): Promise<Account> {
  const account = await insertAccount(db, input)
  if (!account) throw conflicting(`an account named "${input.username}" already exists`)
  return account
}

export async function findAccount(db: Db, username: string): Promise<Account | null> {
  const [row] = await db.select(publicColumns).from(accounts).where(sameUsername(username))
  return (row as Account) ?? null
}

export async function requireAccount(db: Db, username: string): Promise<Account> {
  const account = await findAccount(db, username)
  if (!account) throw nothingFound(`no account named "${username}"`)
  return account
}

export async function requireAccountById(db: Db, id: number): Promise<Account> {
  const [row] = await db.select(publicColumns).from(accounts).where(eq(accounts.id, id))
  if (!row) throw nothingFound(`no account with id ${id}`)
  return row as Account
}

export type AccountFilters = { roles?: Role[]; memberships?: Membership[] }

/** Accounts in id order, `limit` of them after id `afterId`. */
export async function listAccounts(db: Db, filters: AccountFilters, limit: number, afterId = 0): Promise<Account[]> {
  const rows = await db
    .select(publicColumns)
    .from(accounts)
    .where(
      and(
        gt(accounts.id, afterId),
        filters.roles ? inArray(accounts.role, filters.roles) : undefined,
        filters.memberships ? inArray(accounts.membership, filters.memberships) : undefined,
      ),
    )
    .orderBy(asc(accounts.id))
    .limit(limit)
  return rows as Account[]
}

/**
 * Sets the membership. A member's membership that lapses ends the member's sessions at once; the member may sign in
 * again, to a lapsed account (and setting lapsed again does not end that session).
 */
export async function setMembershipById(db: Db, id: number, membership: Membership): Promise<Account> {
  if (!MEMBERSHIPS.includes(membership)) throw invalidInput('membership must be active or lapsed')
  const before = await requireAccountById(db, id)
  const [row] = await db.update(accounts).set({ membership }).where(eq(accounts.id, id)).returning(publicColumns)
  if (!row) throw nothingFound(`no account with id ${id}`)
  if (row.role === 'member' && before.membership === 'active' && membership !== 'active') await endSessionsOf(db, id)
  return row as Account
}

export async function setMembership(db: Db, username: string, membership: Membership): Promise<Account> {
  const account = await requireAccount(db, username)
  return setMembershipById(db, account.id, membership)
}

let dummyHash: Promise<string> | null = null

/**
 * A hash of a random password, made once with the same algorithm and cost as real ones: a login for
 * an unknown user verifies against it, so it takes as long as a wrong password for a known one.
 * Call it at start-up so the first such login does not also pay for making it.
 */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(18).toString('base64url'))
  return dummyHash
}

export type AuthenticateOptions = { verify?: (password: string, hash: string) => Promise<boolean> }

/**
 * Checks a login; the same null, after the same slow verification, for an unknown name, an account
 * that cannot log in (no real hash, or disabled by an operator) and a wrong password, so neither the
 * answer nor its time tells which names exist or which accounts are disabled.
 */
export async function authenticate(
  db: Db,
  username: string,
  password: string,
  options: AuthenticateOptions = {},
): Promise<Account | null> {
  const verify = options.verify ?? verifyPassword
  const [row] = await db
    .select({ ...publicColumns, passwordHash: accounts.passwordHash })
    .from(accounts)
    .where(sameUsername(username))
  const usable =
    row !== undefined &&
    row.disabledAt === null &&
    (row.passwordHash.startsWith('$') || row.passwordHash.startsWith('scrypt$'))
  const hash = usable ? row!.passwordHash : await dummyPasswordHash()
  const matches = await verify(password, hash)
  if (!usable || !matches) return null
  const { passwordHash: _, ...account } = row!
  return account as Account
}
