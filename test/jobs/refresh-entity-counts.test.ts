import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { asc, eq } from 'drizzle-orm'
import { entities, jobRuns } from '../../src/db/schema'
import { recordRun } from '../../src/jobs/job-runs'
import { refreshEntityCounts } from '../../src/jobs/refresh-entity-counts'
import { freshDatabase, type TestDatabase } from '../support/database'
import { insertEntity, insertPapers, linkEntity, paperRow } from '../support/fixtures'

let database: TestDatabase
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(async () => {
  await database.close()
})

describe('refreshEntityCounts', () => {
  test('counts distinct papers per entity, roles aside, and writes only changed rows', async () => {
    await insertPapers(database.db, [paperRow({ id: 'MED-1' }), paperRow({ id: 'MED-2' })])
    const a = await insertEntity(database.db, 'gene', 'HGNC:1', 'A')
    const b = await insertEntity(database.db, 'gene', 'HGNC:2', 'B')
    await insertEntity(database.db, 'gene', 'HGNC:3', 'C')
    await linkEntity(database.db, 'MED-1', '2026-10-02', a.id, 'studied')
    await linkEntity(database.db, 'MED-1', '2026-10-02', a.id, 'target')
    await linkEntity(database.db, 'MED-2', '2026-10-02', a.id, 'studied')
    await linkEntity(database.db, 'MED-2', '2026-10-02', b.id, 'mentioned')
    expect(await refreshEntityCounts(database.db)).toEqual({ updated: 2 })
    const counts = await database.db
      .select({ key: entities.key, n: entities.paperCount })
      .from(entities)
      .orderBy(asc(entities.key))
    expect(counts).toEqual([
      { key: 'HGNC:1', n: 2 },
      { key: 'HGNC:2', n: 1 },
      { key: 'HGNC:3', n: 0 },
    ])
    expect(await refreshEntityCounts(database.db)).toEqual({ updated: 0 })
  })
})

describe('recordRun', () => {
  test('leaves a row with outcome and counts, and records failures', async () => {
    await recordRun(database.db, 'refresh', () => refreshEntityCounts(database.db))
    await expect(
      recordRun(database.db, 'harvest', async () => {
        throw new Error('Europe PMC said 503')
      }),
    ).rejects.toThrow('503')
    const [ok] = await database.db.select().from(jobRuns).where(eq(jobRuns.job, 'refresh'))
    expect(ok).toMatchObject({ outcome: 'ok', counts: { updated: 0 }, error: null })
    expect(ok.finishedAt!.getTime()).toBeGreaterThanOrEqual(ok.startedAt.getTime())
    const [failed] = await database.db.select().from(jobRuns).where(eq(jobRuns.job, 'harvest'))
    expect(failed).toMatchObject({ outcome: 'failed', error: 'Europe PMC said 503' })
  })
})
