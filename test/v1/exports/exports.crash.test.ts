/**
 * `kill -9` of a real `cli export` process in the middle of writing: the export served before stays
 * served, byte for byte; the job's lock dies with the process; the next run deletes what the dead
 * one left, completes, and keeps the killed run's predecessor as the previous export.
 */
import { describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { jobRuns } from '../../../src/db/schema'
import { ABANDONED_RUN } from '../../../src/jobs/job-runs'
import { testDriver } from '../../support/database'
import { eventually } from '../../support/eventually'
import { get, listExports, pathOf, useExportsApi } from './support'

const onPostgres = testDriver === 'postgres'
if (!onPostgres)
  console.log(
    'kill -9 export test left out on PGlite: it needs a server that outlives the killed process (run with DATABASE_URL)',
  )

const api = useExportsApi({ seed: false })

function cliProcess() {
  return Bun.spawn([process.execPath, 'scripts/cli.ts', 'export'], {
    env: { ...process.env, DATABASE_URL: api.database.url!, ...api.env, LOG_LEVEL: 'silent' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

describe.skipIf(!onPostgres)('kill -9 in the middle of an export', () => {
  test('the previous export stays served whole; the next run completes and cleans up', async () => {
    // Enough papers (with long abstracts) that writing the papers file takes a while.
    await api.database.rows(sql`insert into papers (id, source, title, authors, journal, indexed_date, preprint, publication_types, url, abstract, abstract_license)
      select 'MED-' || n, 'MED', 'Paper ' || n, 'Smith A', 'Aging Cell', date '2026-10-01' + (n % 30), false, array['Journal Article'],
        'https://example.org/' || n, repeat(md5(n::text), 40), case when n % 2 = 0 then 'cc by' else 'cc by-nc' end
      from generate_series(1, 12000) n`)
    const first = cliProcess()
    expect(await first.exited).toBe(0)
    const served = await listExports(api)
    const manifestBefore = readFileSync(join(api.dir, 'manifest.json'), 'utf8')

    const child = cliProcess()
    // Killed once the new papers file has bytes on disk: the run is writing.
    const deadline = performance.now() + 30_000
    const writing = () =>
      readdirSync(api.dir).some(
        (n) => n.startsWith('.tmp-papers-') && (statSync(join(api.dir, n), { throwIfNoEntry: false })?.size ?? 0) > 0,
      )
    while (child.exitCode === null && !writing() && performance.now() < deadline) await Bun.sleep(2)
    expect(child.exitCode).toBeNull() // still running: the kill lands mid-export
    child.kill('SIGKILL')
    await child.exited
    expect(child.signalCode).toBe('SIGKILL')
    expect(readdirSync(api.dir).some((n) => n.startsWith('.tmp-'))).toBe(true)

    // The export before is served as it was, every file whole.
    expect(readFileSync(join(api.dir, 'manifest.json'), 'utf8')).toBe(manifestBefore)
    expect(await listExports(api)).toEqual(served)
    for (const f of served) {
      expect(sha256(join(api.dir, f.csv!.file))).toBe(f.csv!.sha256)
      expect(sha256(join(api.dir, f.file))).toBe(f.sha256)
      const response = await get(api, pathOf(f.url))
      expect(
        createHash('sha256')
          .update(new Uint8Array(await response.arrayBuffer()))
          .digest('hex'),
      ).toBe(f.sha256)
    }
    // The lock went with the process.
    expect(
      await eventually(
        async () =>
          (
            await api.database.rows<{ n: number }>(sql`
      select count(*)::int as n from pg_locks l join pg_stat_activity a using (pid)
      where l.locktype = 'advisory' and a.datname = current_database()`)
          )[0].n === 0,
        10_000,
      ),
    ).toBe(true)

    const next = cliProcess()
    expect(await next.exited).toBe(0)
    const after = await listExports(api)
    expect(after.map((f) => f.count)).toEqual([12000, 0, 0, 0])
    expect(after.map((f) => f.file)).not.toEqual(served.map((f) => f.file))
    expect(readdirSync(api.dir).filter((n) => n.startsWith('.tmp-'))).toEqual([])
    expect(JSON.parse(readFileSync(join(api.dir, 'manifest-previous.json'), 'utf8'))).toEqual(
      JSON.parse(manifestBefore),
    )
    const named = (listed: typeof served) => listed.flatMap((f) => [f.file, f.csv!.file])
    const expected = ['manifest-previous.json', 'manifest.json', ...named(served), ...named(after)]
    expect(readdirSync(api.dir).sort()).toEqual(expected.sort())
    const runs = await api.database.db.select().from(jobRuns).where(eq(jobRuns.job, 'export')).orderBy(jobRuns.id)
    expect(runs.map((r) => [r.outcome, r.error])).toEqual([
      ['ok', null],
      ['failed', ABANDONED_RUN],
      ['ok', null],
    ])
  }, 120_000)
})
