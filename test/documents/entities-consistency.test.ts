/**
 * Issue 39: no stored entity page ever disagrees with its rows. Papers are harvested, re-harvested with a new title,
 * journal or licence, analysed again (their links and claims replaced), judged by an editor, claims' sides resolved and
 * unresolved, links' roles changed and links removed, entities renamed and recounted, papers withdrawn, in a random
 * order, with the refresher racing the writes; after every step each stored page is compared with the first page built
 * afresh from the rows, and at the end, once refreshed, every entity has one.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { executeRows } from '../../src/db/client'
import { builtinAnalyzer } from '../../src/pipeline/analysis/builtin-analyzer'
import { runAnalysis } from '../../src/pipeline/analysis/pipeline'
import { papers } from '../../src/db/schema'
import {
  checkEntityDocumentsVersion,
  rebuildEntityDocuments,
  refreshEntityDocuments,
} from '../../src/documents/entities'
import { storePapers } from '../../src/pipeline/ingest/europepmc/store'
import { correctJudgement } from '../../src/pipeline/judgements/correct'
import { freshDatabase, type TestDatabase } from '../support/database'
import { createTestKey } from '../support/fixtures'
import { harvested } from './support'
import { expectEntityDocumentsConsistent } from './entity-support'

let database: TestDatabase
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(async () => {
  await database.close()
})

/** mulberry32: the same steps for the same seed, so a failure can be replayed. */
function random(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const quiet = () => {}

/** Thrown to roll a transaction back, carrying what the check inside found. */
class Rollback extends Error {
  constructor(readonly found: Error | null) {
    super('rollback')
  }
}
const entityCount = async () =>
  (await executeRows<{ n: number }>(database.db, sql`select count(*)::int as n from entities`))[0].n

describe('stored entity pages', () => {
  test('stay equal to a fresh build through harvests, analyses, links, claims, renames and withdrawals in random order', async () => {
    const db = database.db
    const seed = Number(process.env.DOCUMENTS_SEED ?? Date.now() % 100000)
    const next = random(seed)
    const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]
    console.log(`entity documents consistency seed ${seed} (DOCUMENTS_SEED=${seed} replays it)`)
    const analyzer = builtinAnalyzer()
    const account = (await createTestKey(db)).accountId

    let serial = 0
    await storePapers(
      db,
      Array.from({ length: 12 }, () => harvested(++serial)),
    )
    await runAnalysis(db, analyzer, { onFailure: quiet })
    const entities = await entityCount()
    expect(entities).toBeGreaterThan(3)
    expect((await refreshEntityDocuments(db)).written).toBe(entities)
    expect(await expectEntityDocumentsConsistent(db, { allFresh: true })).toBe(entities)

    const live = async () => (await db.select({ id: papers.id }).from(papers)).map((r) => r.id)
    const aClaim = `(select id from claims order by random() limit 1)`
    const steps: Record<string, () => Promise<unknown>> = {
      harvestNew: async () => storePapers(db, [harvested(++serial)]),
      reharvest: async () => {
        const n = Number(pick(await live()).slice(4)) - 900000
        return storePapers(db, [
          harvested(n, {
            title: `Revised ${Math.floor(next() * 1000)}: metformin and ageing`,
            journal: pick(['Nature Aging', 'Aging Cell', 'GeroScience']),
            abstractLicense: pick(['cc by', 'cc by-nc', null, 'cc0']),
          }),
        ])
      },
      analyseAgain: async () =>
        runAnalysis(db, analyzer, { only: { paperIds: [pick(await live())], articleIds: [] }, onFailure: quiet }),
      analysePending: async () => runAnalysis(db, analyzer, { onFailure: quiet }),
      correct: async () =>
        correctJudgement(
          db,
          pick(await live()),
          { relevance: pick([0.5, 1, 2, 3]), studyType: 'animal', topic: 'other', newsworthiness: 1, note: 'test' },
          account,
          new Date(),
        ),
      editClaim: async () =>
        db.execute(
          sql.raw(`update claims set organism = ${pick(["'Homo sapiens'", 'null', "'C. elegans'"])},
            evidence = evidence || ' (edited)', context = '{"n": 3}' where id = ${aClaim}`),
        ),
      resolveSide: async () =>
        db.execute(
          sql.raw(`update claims set object_entity_id = (select id from entities order by random() limit 1)
            where id = ${aClaim}`),
        ),
      unresolveSide: async () => db.execute(sql.raw(`update claims set subject_entity_id = null where id = ${aClaim}`)),
      changeRole: async () =>
        db.execute(
          sql`update paper_entities set role = case when role = 'studied' then 'mentioned' else 'studied' end
          where (paper_id, entity_id, role) = (select paper_id, entity_id, role from paper_entities order by random()
          limit 1) and not exists (select 1 from paper_entities x where x.paper_id = paper_entities.paper_id and
          x.entity_id = paper_entities.entity_id and x.role <> paper_entities.role)`,
        ),
      unlink: async () =>
        db.execute(
          sql`delete from paper_entities where (paper_id, entity_id) = (select paper_id, entity_id from paper_entities
          order by random() limit 1)`,
        ),
      recount: async () =>
        db.execute(
          sql`update entities set paper_count = paper_count + 1 where id =
          (select id from entities order by random() limit 1)`,
        ),
      reid: async () =>
        db.execute(
          sql`update entities set ids = ids || '{"x": "1"}'::jsonb where id = (select id from entities order by random()
          limit 1)`,
        ),
      renameEntity: async () =>
        db.execute(
          sql`update entities set name = name || '′' where id = (select id from entities order by random() limit 1)`,
        ),
      withdraw: async () => {
        const n = Number(pick(await live()).slice(4)) - 900000
        return storePapers(db, [
          harvested(n, { title: `RETRACTED: ${harvested(n).title}`, publicationTypes: ['Retracted Publication'] }),
        ])
      },
      refreshSome: async () => refreshEntityDocuments(db, { max: 1 + Math.floor(next() * 8), batch: 3 }),
    }
    const names = Object.keys(steps)
    const counts: Record<string, number> = {}
    for (let i = 0; i < 60; i++) {
      // Two steps at once, one of them often the refresher, so refreshes race the writes they must not undo.
      const a = pick(names)
      const b = next() < 0.5 ? 'refreshSome' : pick(names)
      await Promise.all([steps[a](), steps[b]()])
      counts[a] = (counts[a] ?? 0) + 1
      await expectEntityDocumentsConsistent(db)
      // Most steps leave some page built, so a dropped trigger shows as a difference soon after its write.
      if (next() < 0.5) await refreshEntityDocuments(db)
    }
    console.log('steps', counts)
    await refreshEntityDocuments(db)
    expect(await expectEntityDocumentsConsistent(db, { allFresh: true })).toBe(await entityCount())
  })

  test('a write made between the read of the rows and the store of the page leaves it stale, not wrong', async () => {
    const db = database.db
    await refreshEntityDocuments(db)
    const [{ id, generation }] = await executeRows<{ id: number; generation: number }>(
      db,
      sql`select entity_id as id, generation from entity_documents
      where entity_id in (select entity_id from paper_entities) order by entity_id limit 1`,
    )
    // The refresher read the rows at `generation`; a paper of the page changes before it stores.
    await db.execute(
      sql`update papers set title = title || ' (changed)' where id = (select paper_id from paper_entities
      where entity_id = ${id} limit 1)`,
    )
    await db.execute(
      sql`update entity_documents set body = 'old' where entity_id = ${id} and generation = ${generation}`,
    )
    const [row] = await executeRows<{ body: string | null }>(
      db,
      sql`select body from entity_documents where entity_id = ${id}`,
    )
    expect(row.body).toBeNull()
    await refreshEntityDocuments(db)
    await expectEntityDocumentsConsistent(db, { allFresh: true })
  })

  test('each trigger is needed: without it, a write leaves a stored page that the comparison finds wrong', async () => {
    const db = database.db
    const aLink = `(select entity_id from paper_entities order by entity_id limit 1)`
    const writes: [table: string, trigger: string, write: string][] = [
      ['entities', 'entities_entity_documents_update', `update entities set name = name || '!' where id = ${aLink}`],
      [
        'paper_entities',
        'paper_entities_entity_documents_insert',
        `insert into paper_entities (paper_id, entity_id, role, indexed_date)
        select p.id, ${aLink}, 'mentioned', p.indexed_date from papers p where not exists
          (select 1 from paper_entities x where x.paper_id = p.id and x.entity_id = ${aLink}) limit 1`,
      ],
      [
        'paper_entities',
        'paper_entities_entity_documents_update',
        `update paper_entities set role = 'other-role' where entity_id = ${aLink}`,
      ],
      [
        'paper_entities',
        'paper_entities_entity_documents_delete',
        `delete from paper_entities where entity_id = ${aLink}`,
      ],
      [
        'claims',
        'claims_entity_documents_insert',
        `insert into claims (paper_id, subject_text, subject_entity_id, relation, object_text)
        select id, 'x', ${aLink}, 'increases', 'y' from papers limit 1`,
      ],
      [
        'claims',
        'claims_entity_documents_update',
        `update claims set subject_entity_id = ${aLink} where id = (select min(id) from claims)
        and subject_entity_id is distinct from ${aLink}`,
      ],
      ['claims', 'claims_entity_documents_delete', `delete from claims where subject_entity_id = ${aLink}`],
      [
        'papers',
        'papers_entity_documents_update',
        `update papers set title = 'Elsewhere', relevance = 3 where id in
        (select paper_id from paper_entities where entity_id = ${aLink})`,
      ],
    ]
    for (const [table, trigger, write] of writes) {
      await refreshEntityDocuments(db)
      const found = await db
        .transaction(async (tx) => {
          await tx.execute(sql.raw(`alter table ${table} disable trigger ${trigger}`))
          await tx.execute(sql.raw(write))
          const error = await expectEntityDocumentsConsistent(tx as unknown as typeof db).then(
            () => null,
            (e: Error) => e,
          )
          throw new Rollback(error)
        })
        .catch((e) => (e instanceof Rollback ? e.found : e))
      expect(`${trigger}: ${found ? 'difference found' : 'none found'}`).toBe(`${trigger}: difference found`)
    }
    await expectEntityDocumentsConsistent(db, { allFresh: true })
  })

  test('a new serializer version makes every page stale at start-up; rebuild writes them all, resumably', async () => {
    const db = database.db
    const total = await entityCount()
    expect(await checkEntityDocumentsVersion(db, 'v-a')).toBe(total)
    expect(await checkEntityDocumentsVersion(db, 'v-a')).toBe(0)
    const seen: number[] = []
    await expect(
      rebuildEntityDocuments(db, {
        batch: 4,
        onProgress: (done) => {
          seen.push(done)
          throw new Error('stopped')
        },
      }),
    ).rejects.toThrow('stopped')
    expect(seen).toEqual([4])
    const progress: number[] = []
    const { resumedAfter } = await rebuildEntityDocuments(db, { batch: 4, onProgress: (done) => progress.push(done) })
    expect(resumedAfter).not.toBeNull()
    expect(progress[0]).toBe(Math.min(8, total))
    expect(progress.at(-1)).toBe(total)
    expect(await expectEntityDocumentsConsistent(db, { allFresh: true })).toBe(total)
  })
})
