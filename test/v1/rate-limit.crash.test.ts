/**
 * kill -9 in a loop must not hand out fresh allowance through the in-process store: each process
 * is killed at a random point while it spends the allowance, the next starts from what the
 * database holds, and across all of them no more than the allowance is granted. What the crashes
 * cost is bounded too: at most one reservation block per window per crash.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/client'
import { migrateDatabase } from '../../src/db/migrate'
import { RESERVATION_SHARE } from '../../src/rate-limit/memory-store'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'

const CRASHES = 5
let database: TestDatabase | null = null
let pgliteDir: string | null = null
let env: Record<string, string>

beforeAll(async () => {
  if (testDriver === 'postgres') {
    database = await freshDatabase()
    env = { DATABASE_URL: database.url! }
  } else {
    // The children need a database on disk that survives them: an embedded one of this test's own.
    pgliteDir = mkdtempSync(join(tmpdir(), 'geroscope-ratelimit-'))
    const embedded = await openDatabase({ kind: 'pglite', dataDir: pgliteDir })
    await migrateDatabase(embedded)
    await embedded.close()
    env = { PGLITE_DIR: pgliteDir }
  }
}, 60_000)

afterAll(async () => {
  await database?.close()
  if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true })
})

/** Runs one child; kills it with SIGKILL once it has granted `killAfter` requests (null: let it finish). Returns its grants. */
async function runChild(args: string[], killAfter: number | null): Promise<{ granted: number; refused: boolean }> {
  const child = Bun.spawn([process.execPath, 'test/support/rate-limit-child.ts', ...args], {
    env: { ...process.env, ...env },
    stdout: 'pipe',
    stderr: 'inherit',
  })
  let granted = 0
  let refused = false
  let text = ''
  const decoder = new TextDecoder()
  for await (const chunk of child.stdout) {
    text += decoder.decode(chunk, { stream: true })
    const lines = text.split('\n')
    text = lines.pop()!
    for (const line of lines) {
      if (line === 'granted') granted++
      if (line === 'refused') refused = true
    }
    if (killAfter !== null && granted >= killAfter && !child.killed) child.kill('SIGKILL')
  }
  await child.exited
  return { granted, refused }
}

describe('the in-process rate-limit store under kill -9', () => {
  test.each([
    ['the minute allowance', 200, 5000, 200],
    ['the day allowance', 5000, 200, 200],
  ])(
    'a crash loop never grants more than %s',
    async (_name, perMinute, perDay, binding) => {
      const bucket = `account:crash-${perMinute}-${perDay}`
      const args = [bucket, String(perMinute), String(perDay), '2030-05-05T10:00:30Z']
      const block = Math.max(1, Math.ceil(binding * RESERVATION_SHARE))
      let total = 0
      let crashes = 0
      for (; crashes < CRASHES; crashes++) {
        const run = await runChild(args, 1 + Math.floor(Math.random() * 20))
        total += run.granted
        if (run.refused) break // spent before the kill landed
      }
      expect(crashes).toBeGreaterThanOrEqual(3) // the loop really crashed the store several times
      const last = await runChild(args, null)
      expect(last.refused).toBe(true)
      total += last.granted
      expect(total).toBeLessThanOrEqual(binding)
      expect(total).toBeGreaterThanOrEqual(binding - crashes * block)
    },
    120_000,
  )
})
