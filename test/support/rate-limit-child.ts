/**
 * A process that spends a rate-limit allowance as fast as it can through the in-process store, for
 * the crash tests: one line on stdout per granted request, written synchronously so that a line
 * printed before a kill -9 is never lost, then `refused` when the allowance is spent.
 *   bun test/support/rate-limit-child.ts <bucket> <per-minute> <per-day> <now ISO>
 * The database: DATABASE_URL (PostgreSQL) or PGLITE_DIR (an embedded database on disk).
 */
import { writeSync } from 'node:fs'
import { openDatabase } from '../../src/db/client'
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store'

const [bucket, perMinute, perDay, nowIso] = process.argv.slice(2)
const database = process.env.DATABASE_URL
  ? await openDatabase({ kind: 'postgres', url: process.env.DATABASE_URL, max: 4 })
  : await openDatabase({ kind: 'pglite', dataDir: process.env.PGLITE_DIR! })
const now = new Date(nowIso)
const store = await MemoryRateLimitStore.open(database, now)
writeSync(1, 'ready\n')
const allowance = { perMinute: Number(perMinute), perDay: Number(perDay) }
for (;;) {
  // A few requests at once, as a server takes them.
  const decisions = await Promise.all(Array.from({ length: 4 }, () => store.take(bucket, allowance, now)))
  for (const d of decisions) if (d.allowed) writeSync(1, 'granted\n')
  if (decisions.some((d) => !d.allowed)) break
  await Bun.sleep(2) // paced like traffic, so a kill lands mid-way
}
writeSync(1, 'refused\n')
await store.close()
await database.close()
