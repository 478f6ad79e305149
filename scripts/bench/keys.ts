/** Pro keys for benchmarks, made directly in the database (an account "bench-<pid>" holds them). */
import { createAccount } from '../../src/modules/accounts/service'
import { createKey } from '../../src/modules/keys/service'
import type { Db } from '../../src/db/client'

export async function benchKeys(db: Db, count: number): Promise<string[]> {
  const username = `bench-${process.pid}-${Date.now().toString(36)}`
  await createAccount(db, { username, password: 'bench-password-not-for-login', role: 'member' })
  const keys: string[] = []
  for (let i = 0; i < count; i++) keys.push((await createKey(db, username, 'pro', `bench ${i}`)).key)
  return keys
}
