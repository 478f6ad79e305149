/** Operators' account management, over the account and key services the command line uses too. */
import type { Db } from '../../../db/client'
import {
  createAccount,
  listAccounts,
  requireAccountById,
  setMembershipById,
  type Account,
  type Membership,
  type NewAccount,
  type Role,
} from '../../../accounts/accounts'
import type { Tier } from '../../../accounts/keys'
import { pager } from '../../../http/pager'
import { createAccountKey, listAccountKeys } from '../keys/service'

export const serializeAccount = (a: Account) => ({
  id: a.id,
  username: a.username,
  role: a.role,
  membership: a.membership,
  created_at: a.createdAt.toISOString(),
  disabled: a.disabledAt !== null,
  disabled_at: a.disabledAt?.toISOString() ?? null,
})

export type AccountQuery = { role?: Role[]; membership?: Membership[]; cursor?: string; limit?: number }

export async function accountPage(db: Db, secret: string, query: AccountQuery) {
  const filters = { roles: query.role, memberships: query.membership }
  const paging = pager(secret, 'admin-accounts', filters, query)
  const rows = await listAccounts(db, filters, paging.limit + 1, paging.after ? Number(paging.after[0]) : 0)
  const { items, pagination } = paging.page(rows, (a) => [a.id])
  return { data: items.map(serializeAccount), pagination }
}

export const addAccount = async (db: Db, input: NewAccount) => serializeAccount(await createAccount(db, input))
export const getAccount = async (db: Db, id: number) => serializeAccount(await requireAccountById(db, id))
export const changeMembership = async (db: Db, id: number, membership: Membership) =>
  serializeAccount(await setMembershipById(db, id, membership))
export const accountKeys = (db: Db, id: number) => listAccountKeys(db, id)

export async function addAccountKey(db: Db, id: number, tier: Tier, label: string | null) {
  return createAccountKey(db, await requireAccountById(db, id), tier, label)
}
