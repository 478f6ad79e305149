/** Accounts: operators (admin) and paid account holders (member), with their membership status. */
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { accounts } from '../../db/schema'
import { conflict, invalidParameter, notFound } from '../../http/errors'
import { hashPassword, verifyPassword } from '../../platform/password'

export const ROLES = ['admin', 'member'] as const
export const MEMBERSHIPS = ['active', 'lapsed'] as const
export type Role = (typeof ROLES)[number]
export type Membership = (typeof MEMBERSHIPS)[number]

export type Account = { id: number; username: string; role: Role; membership: Membership; createdAt: Date }

const USERNAME = /^[A-Za-z0-9_.-]{3,64}$/
export const MIN_PASSWORD_LENGTH = 10

/** Usernames are unique and matched without regard to case. */
const sameUsername = (username: string) => sql`lower(${accounts.username}) = lower(${username})`

const publicColumns = {
  id: accounts.id,
  username: accounts.username,
  role: accounts.role,
  membership: accounts.membership,
  createdAt: accounts.createdAt,
}

export type NewAccount = { username: string; password: string; role: Role; membership?: Membership }

export async function createAccount(db: Db, input: NewAccount): Promise<Account> {
  if (!USERNAME.test(input.username)) {
    throw invalidParameter('username must be 3 to 64 letters, digits, ".", "_" or "-"')
  }
  if (input.password.length < MIN_PASSWORD_LENGTH) {
    throw invalidParameter(`password must be at least ${MIN_PASSWORD_LENGTH} characters long`)
  }
  if (!ROLES.includes(input.role)) throw invalidParameter('role must be admin or member')
  const membership = input.membership ?? 'active'
  if (!MEMBERSHIPS.includes(membership)) throw invalidParameter('membership must be active or lapsed')
  const passwordHash = await hashPassword(input.password)
  const [row] = await db
    .insert(accounts)
    .values({ username: input.username, passwordHash, role: input.role, membership })
    .onConflictDoNothing()
    .returning(publicColumns)
  if (!row) throw conflict(`an account named "${input.username}" already exists`)
  return row as Account
}

export async function findAccount(db: Db, username: string): Promise<Account | null> {
  const [row] = await db.select(publicColumns).from(accounts)
    .where(sameUsername(username))
  return (row as Account) ?? null
}

export async function requireAccount(db: Db, username: string): Promise<Account> {
  const account = await findAccount(db, username)
  if (!account) throw notFound(`no account named "${username}"`)
  return account
}

export async function setMembership(db: Db, username: string, membership: Membership): Promise<Account> {
  if (!MEMBERSHIPS.includes(membership)) throw invalidParameter('membership must be active or lapsed')
  const account = await requireAccount(db, username)
  await db.update(accounts).set({ membership }).where(eq(accounts.id, account.id))
  return { ...account, membership }
}

/** Checks a login; the same null for an unknown name and a wrong password. */
export async function authenticate(db: Db, username: string, password: string): Promise<Account | null> {
  const [row] = await db.select({ ...publicColumns, passwordHash: accounts.passwordHash }).from(accounts)
    .where(sameUsername(username))
  if (!row) {
    await hashPassword(password) // spend the same time as a real check: no username oracle
    return null
  }
  const { passwordHash, ...account } = row
  return (await verifyPassword(password, passwordHash)) ? (account as Account) : null
}
