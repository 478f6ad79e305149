/**
 * Issue 39: kill -9 at any point of a write leaves the stored documents consistent. A child writes (harvests,
 * analyses, corrections, upvotes, renames, withdrawals) and refreshes documents until it is killed at a random
 * moment; after each kill the database is opened again as a start-up does, every stored body is compared with a
 * fresh build (claim items too), and a refresh then brings every paper's document and claim's item back.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase, type Database } from '../../src/db/client'
import { migrateDatabase } from '../../src/db/migrate'
import { checkDocumentsVersion, refreshPaperDocuments } from '../../src/documents/papers'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'
import { expectDocumentsConsistent } from './support'
import { checkClaimDocumentsVersion, refreshClaimDocuments } from '../../src/documents/claims'
import { expectClaimDocumentsConsistent } from './claim-support'

const CRASHES = 4
let database: TestDatabase | null = null
let pgliteDir: string | null = null
let env: Record<string, string>

beforeAll(async () => {
  if (testDriver === 'postgres') {
    database = await freshDatabase()
    env = { DATABASE_URL: database.url! }
  } else {
    pgliteDir = mkdtempSync(join(tmpdir(), 'geroscope-documents-'))
    const embedded = await openDatabase({ kind: 'pglite', dataDir: pgliteDir })
    await migrateDatabase(embedded)
    await embedded.close()
    env = { PGLITE_DIR: pgliteDir }
  }
}, 120_000)

afterAll(async () => {
  await database?.close()
  if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true })
})

/** Runs the child until it has done `steps` steps, then kills it with SIGKILL mid-way through the next. */
async function crashChild(seed: number, steps: number): Promise<number> {
  const child = Bun.spawn([process.execPath, 'test/documents/crash-child.ts', String(seed)], {
    env: { ...process.env, ...env },
    stdout: 'pipe',
    stderr: 'inherit',
  })
  let done = 0
  let text = ''
  const decoder = new TextDecoder()
  for await (const chunk of child.stdout) {
    text += decoder.decode(chunk, { stream: true })
    const lines = text.split('\n')
    text = lines.pop()!
    done += lines.filter((l) => l !== 'ready').length
    if (done >= steps && !child.killed) {
      await Bun.sleep(Math.floor(Math.random() * 15)) // somewhere inside the next step
      child.kill('SIGKILL')
    }
  }
  await child.exited
  return done
}

const reopen = async (): Promise<Database> =>
  testDriver === 'postgres'
    ? openDatabase({ kind: 'postgres', url: database!.url!, max: 2 })
    : openDatabase({ kind: 'pglite', dataDir: pgliteDir! })

describe('stored documents under kill -9', () => {
  test('every stored body matches its rows after each crash, and all are rebuilt after', async () => {
    let compared = 0
    let claimsCompared = 0
    for (let crash = 0; crash < CRASHES; crash++) {
      const steps = await crashChild(1000 + crash, 15 + Math.floor(Math.random() * 25))
      expect(steps).toBeGreaterThan(10)
      const opened = await reopen()
      try {
        await checkDocumentsVersion(opened.db) // what a start-up does before serving
        await checkClaimDocumentsVersion(opened.db)
        compared += await expectDocumentsConsistent(opened.db)
        claimsCompared += await expectClaimDocumentsConsistent(opened.db)
        if (crash === CRASHES - 1) {
          await refreshPaperDocuments(opened.db)
          await refreshClaimDocuments(opened.db)
          compared += await expectDocumentsConsistent(opened.db, { allFresh: true })
          claimsCompared += await expectClaimDocumentsConsistent(opened.db, { allFresh: true })
        }
      } finally {
        await opened.close()
      }
    }
    expect(compared).toBeGreaterThan(0)
    expect(claimsCompared).toBeGreaterThan(0)
  }, 600_000)
})
