/**
 * Operators' hold on an account from the command line, as the admin interface gives it (src/accounts/): set a new
 * password (every session of the account ends), disable and enable the account, end all its sessions. `accounts
 * enable` is also how a disabled operator gets back in when no other operator can.
 */
import { setAccountDisabled } from '../accounts/account-disable'
import { endSessionsOf } from '../accounts/account-sessions'
import { resetPassword } from '../accounts/password-change'
import { passwordProblem } from '../accounts/password-rules'
import { requireAccount } from '../accounts/accounts'
import type { Command } from './command'

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

export const ACCOUNT_ACCESS_COMMANDS: Command[] = [
  {
    words: ['accounts', 'password'],
    usage: 'accounts password --username U --password P',
    flags: { username: { required: true }, password: { required: true } },
    run: async (flags, { db }, { io }) => {
      const problem = passwordProblem(flags.password!)
      if (problem) throw new Error(problem)
      const account = await requireAccount(db, flags.username!)
      const reset = await resetPassword(db, account.id, flags.password!)
      if (!reset) throw new Error(`no account named "${flags.username}"`)
      io.out(`password of "${account.username}" set; ${plural(reset.endedSessions, 'session')} ended`)
    },
  },
  {
    words: ['accounts', 'disable'],
    usage: 'accounts disable --username U',
    flags: { username: { required: true } },
    run: async (flags, { db }, { io }) => {
      const account = await requireAccount(db, flags.username!)
      const change = await setAccountDisabled(db, account.id, true, new Date())
      if (!change) throw new Error(`no account named "${flags.username}"`)
      const since = account.disabledAt ? ` (already, since ${account.disabledAt.toISOString()})` : ''
      io.out(
        `account "${account.username}" disabled${since}; ${plural(change.endedSessions, 'session')} ended; ` +
          'its API keys are refused within 2 seconds',
      )
    },
  },
  {
    words: ['accounts', 'enable'],
    usage: 'accounts enable --username U',
    flags: { username: { required: true } },
    run: async (flags, { db }, { io }) => {
      const account = await requireAccount(db, flags.username!)
      if (!(await setAccountDisabled(db, account.id, false, new Date()))) {
        throw new Error(`no account named "${flags.username}"`)
      }
      io.out(`account "${account.username}" ${account.disabledAt ? 'enabled' : 'was not disabled'}`)
    },
  },
  {
    words: ['accounts', 'end-sessions'],
    usage: 'accounts end-sessions --username U',
    flags: { username: { required: true } },
    run: async (flags, { db }, { io }) => {
      const account = await requireAccount(db, flags.username!)
      io.out(`${plural(await endSessionsOf(db, account.id), 'session')} of "${account.username}" ended`)
    },
  },
]
