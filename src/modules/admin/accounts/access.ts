/**
 * Operators' hold on an account's access, over src/accounts/: disable and enable it, end all its sessions, set a new
 * password for it. An operator cannot disable their own account, so an operator who can sign in is always left; the
 * command line (bun run cli accounts enable) undoes any disabling.
 */
import type { Db } from '../../../db/client'
import { ApiError, notFound } from '../../../http/errors'
import { endSessionsOf } from '../../../accounts/account-sessions'
import { setAccountDisabled } from '../../../accounts/account-disable'
import { resetPassword } from '../../../accounts/password-change'
import { requireAccountById } from '../../../accounts/accounts'
import type { SessionAccount } from '../../../accounts/sessions'
import { serializeAccount } from './service'

export async function changeAccess(db: Db, caller: SessionAccount, id: number, disabled: boolean, now: Date) {
  if (disabled && id === caller.id) {
    throw new ApiError('conflict', 'you cannot disable your own account; another operator or the command line can')
  }
  const change = await setAccountDisabled(db, id, disabled, now)
  if (!change) throw notFound(`no account with id ${id}`)
  return { account: serializeAccount(await requireAccountById(db, id)), sessions_ended: change.endedSessions }
}

export async function endAccountSessions(db: Db, id: number) {
  await requireAccountById(db, id)
  return { sessions_ended: await endSessionsOf(db, id) }
}

export async function setAccountPassword(db: Db, id: number, password: string) {
  const reset = await resetPassword(db, id, password)
  if (!reset) throw notFound(`no account with id ${id}`)
  return { sessions_ended: reset.endedSessions }
}
