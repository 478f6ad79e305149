/** Pro keys for benchmarks, made directly in the database (an account "bench-<pid>" holds them). */
import { createAccount } from '../../src/accounts/accounts'
import { createKey } from '../../src/accounts/keys'
import { openDatabase, type Db } from '../../src/db/client'

export async function benchKeys(db: Db, count: number): Promise<string[]> {
  const username = `bench-${process.pid}-${Date.now().toString(36)}`
  await createAccount(db, { username, password: 'bench-password-not-for-login', role: 'member' })
  const keys: string[] = []
  for (let i = 0; i < count; i++) keys.push((await createKey(db, username, 'pro', `bench ${i}`)).key)
  return keys
}

/** The corpus's database (DATABASE_URL, checked) and `count` fresh pro keys in it: how the HTTP benchmarks start. */
export async function corpusWithKeys(count = 3000): Promise<{ databaseUrl: string; keys: string[] }> {
  const databaseUrl = process.env.DATABASE_URL
  if (!databaseUrl) throw new Error('set DATABASE_URL to the PostgreSQL database holding the benchmark corpus')
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl, max: 2 })
  try {
    return { databaseUrl, keys: await benchKeys(database.db, count) }
  } finally {
    await database.close()
  }
}
