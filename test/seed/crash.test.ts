/**
 * `seed synthetic` under failure on PostgreSQL: a real CLI process killed with SIGKILL in the
 * middle of a load leaves whole papers only (each with all its stories, entities and claims), and
 * the next run completes the corpus; a COPY the server refuses fails at once with its reason.
 * PGlite loads through plain transactions (load-pglite.ts), tested by test/cli/seed.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { generatePaper, type CorpusOptions } from '../../src/seed/corpus'
import { PAPER_COLUMNS } from '../../src/seed/copy-format'
import { copyRows } from '../../src/seed/load-postgres'
import { freshDatabase, testDriver, type TestDatabase } from '../support/database'

if (testDriver !== 'postgres')
  console.log('seed crash tests: left out on PGlite (they need COPY and a server process; run with DATABASE_URL)')

const count = async (database: TestDatabase, table: string) =>
  (await database.rows<{ n: number }>(sql.raw(`select count(*)::int as n from ${table}`)))[0].n

function seedProcess(url: string, papers: number, seed: number) {
  return Bun.spawn(
    [process.execPath, 'scripts/cli.ts', 'seed', 'synthetic', '--papers', String(papers), '--seed', String(seed)],
    {
      env: { ...process.env, DATABASE_URL: url },
      stdout: 'pipe',
      stderr: 'pipe',
    },
  )
}

describe.if(testDriver === 'postgres')('seed synthetic killed with SIGKILL mid-load', () => {
  const PAPERS = 14_000 // chunks of 10,000 and 4,000, copied side by side: the kill lands while one is still in flight
  const SEED = 31
  let database: TestDatabase
  beforeAll(async () => {
    database = await freshDatabase()
  })
  afterAll(async () => {
    await database.close()
  })

  test('leaves every loaded paper with all its children, and the next run completes the corpus', async () => {
    const child = seedProcess(database.url!, PAPERS, SEED)
    const started = Date.now()
    // Kill as soon as the first chunk is committed: the next ones are then in the database's hands.
    while ((await count(database, 'papers')) === 0) {
      if (Date.now() - started > 120_000) throw new Error('the load committed nothing within 2 minutes')
      if (child.exitCode !== null)
        throw new Error(`the load ended before it could be killed: ${await new Response(child.stderr).text()}`)
      await Bun.sleep(50)
    }
    child.kill('SIGKILL')
    expect(await child.exited).not.toBe(0)
    await Bun.sleep(500) // the server notices the dead connections and rolls their transactions back

    const today = new Date().toISOString().slice(0, 10)
    const options: CorpusOptions = { papers: PAPERS, seed: SEED, endDate: today, days: 90 }
    const rows = await database.rows<{ id: string; stories: number; entities: number; claims: number }>(sql`
      select p.id, (select count(*)::int from stories s where s.paper_id = p.id) + (select count(*)::int from held_stories h where h.paper_id = p.id) as stories,
        (select count(*)::int from paper_entities e where e.paper_id = p.id) as entities,
        (select count(*)::int from claims c where c.paper_id = p.id) as claims
      from papers p order by p.id`)
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.length).toBeLessThan(PAPERS)
    const base = 1_000_000_000 + (SEED % 900) * 10_000_000
    // Whole chunks only (papers 0-9,999 and 10,000-13,999; they may commit in either order).
    const perChunk = [0, 0]
    for (const row of rows) perChunk[Math.floor((Number(row.id.slice(4)) - base) / 2 / 10_000)]++
    expect(perChunk.every((n, i) => n === 0 || n === Math.min(10_000, PAPERS - i * 10_000))).toBe(true)
    const incomplete = rows.filter((row) => {
      const bundle = generatePaper(Math.floor((Number(row.id.slice(4)) - base) / 2), options)
      return (
        bundle.paper.id !== row.id ||
        row.stories !== (bundle.story ? 1 : 0) ||
        row.entities !== bundle.entities.length ||
        row.claims !== bundle.claims.length
      )
    })
    expect(incomplete).toEqual([])
    const orphans = await database.rows(sql`
      select paper_id from stories where paper_id not in (select id from papers)
      union all select paper_id from paper_entities where paper_id not in (select id from papers)
      union all select paper_id from claims where paper_id not in (select id from papers)`)
    expect(orphans).toEqual([])

    const rerun = seedProcess(database.url!, PAPERS, SEED)
    const [code, stdout, stderr] = await Promise.all([
      rerun.exited,
      new Response(rerun.stdout).text(),
      new Response(rerun.stderr).text(),
    ])
    expect({ code, stderr: stderr.split('\n').filter((l) => l.startsWith('error')) }).toEqual({ code: 0, stderr: [] })
    expect(stdout).toContain(`; ${rows.length} papers were already loaded by an earlier run`)
    expect(await count(database, 'papers')).toBe(PAPERS)

    const again = seedProcess(database.url!, PAPERS, SEED)
    expect((await new Response(again.stdout).text()).trim()).toBe(
      `synthetic corpus (seed ${SEED}) is already loaded: ${PAPERS} papers; nothing to add`,
    )
    expect(await again.exited).toBe(0)
  }, 300_000)
})

describe.if(testDriver === 'postgres')('a COPY the server refuses', () => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await freshDatabase()
  })
  afterAll(async () => {
    await database.close()
  })

  const within = <T>(promise: Promise<T>, ms: number) =>
    Promise.race([
      promise,
      Bun.sleep(ms).then(() => {
        throw new Error(`still waiting after ${ms} ms`)
      }),
    ])

  test("fails promptly with the server's reason, after the last row was sent and inside a transaction alike", async () => {
    const pg = database.pg!
    await expect(within(copyRows(pg, 'papers', PAPER_COLUMNS, ['MED-1\tMED\n']), 5000)).rejects.toThrow(
      /^COPY into papers failed: missing data for column "doi"/,
    )
    const transaction = pg.begin((tx) => copyRows(tx, 'papers', PAPER_COLUMNS, ['not\ta\tpaper\n']))
    await expect(within(transaction, 5000)).rejects.toThrow(/^COPY into papers failed: /)
    // The transaction was rolled back and its connection is back in the pool, not stuck in an aborted transaction.
    const stuck =
      await pg`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`
    expect(stuck[0].n).toBe(0)
    expect(await count(database, 'papers')).toBe(0)
  })

  test('a duplicate paper fails the load with the key that clashed, instead of hanging', async () => {
    const { loadCorpus } = await import('../../src/seed/bulk-load')
    const options = { papers: 20, seed: 5, endDate: '2026-01-31', days: 10 }
    await loadCorpus(database, options)
    // A concurrent load of the same corpus got there first: here, one paper slipped in behind the resume check.
    await database.rows(sql`delete from papers where id = (select min(id) from papers)`)
    const { loadBundles, ensureEntities } = await import('../../src/seed/bulk-load')
    const bundles = Array.from({ length: 20 }, (_, k) => generatePaper(k, options))
    await expect(within(loadBundles(database, bundles, await ensureEntities(database)), 10_000)).rejects.toThrow(
      /^COPY into papers failed: duplicate key value violates unique constraint "papers_pkey" \(Key \(id\)=\((MED|PPR)-\d+\) already exists\.\)$/,
    )
    expect(await count(database, 'papers')).toBe(19) // the failed chunk left nothing behind
  })
})
