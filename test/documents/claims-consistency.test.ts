/**
 * Issue 39: no stored claim item ever disagrees with its rows. Papers are harvested, re-harvested with a new title,
 * journal or licence, analysed again (their claims replaced), claims edited and their sides resolved or unresolved,
 * entities renamed, papers withdrawn, in a random order, with the refresher racing the writes; after every step each
 * stored item is compared with one built afresh from the rows, and at the end, once refreshed, every claim has one.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { executeRows } from '../../src/db/client'
import { builtinAnalyzer } from '../../src/pipeline/analysis/builtin-analyzer'
import { runAnalysis } from '../../src/pipeline/analysis/pipeline'
import { papers } from '../../src/db/schema'
import { checkClaimDocumentsVersion, rebuildClaimDocuments, refreshClaimDocuments } from '../../src/documents/claims'
import { storePapers } from '../../src/pipeline/ingest/europepmc/store'
import { correctJudgement } from '../../src/pipeline/judgements/correct'
import { freshDatabase, type TestDatabase } from '../support/database'
import { createTestKey } from '../support/fixtures'
import { harvested } from './support'
import { expectClaimDocumentsConsistent } from './claim-support'

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
const claimCount = async () =>
  (await executeRows<{ n: number }>(database.db, sql`select count(*)::int as n from claims`))[0].n

describe('stored claim items', () => {
  test('stay equal to a fresh build through harvests, analyses, claim edits, renames and withdrawals in random order', async () => {
    const db = database.db
    const seed = Number(process.env.DOCUMENTS_SEED ?? Date.now() % 100000)
    const next = random(seed)
    const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]
    console.log(`claim documents consistency seed ${seed} (DOCUMENTS_SEED=${seed} replays it)`)
    const analyzer = builtinAnalyzer()
    const account = (await createTestKey(db)).accountId

    let serial = 0
    await storePapers(
      db,
      Array.from({ length: 12 }, () => harvested(++serial)),
    )
    await runAnalysis(db, analyzer, { onFailure: quiet })
    const claims = await claimCount()
    expect(claims).toBeGreaterThan(12)
    expect((await refreshClaimDocuments(db)).written).toBe(claims)
    expect(await expectClaimDocumentsConsistent(db, { allFresh: true })).toBe(claims)

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
      refreshSome: async () => refreshClaimDocuments(db, { max: 1 + Math.floor(next() * 8), batch: 3 }),
    }
    const names = Object.keys(steps)
    const counts: Record<string, number> = {}
    for (let i = 0; i < 60; i++) {
      // Two steps at once, one of them often the refresher, so refreshes race the writes they must not undo.
      const a = pick(names)
      const b = next() < 0.5 ? 'refreshSome' : pick(names)
      await Promise.all([steps[a](), steps[b]()])
      counts[a] = (counts[a] ?? 0) + 1
      await expectClaimDocumentsConsistent(db)
      // Most steps leave some item built, so a dropped trigger shows as a difference soon after its write.
      if (next() < 0.5) await refreshClaimDocuments(db)
    }
    console.log('steps', counts)
    await refreshClaimDocuments(db)
    expect(await expectClaimDocumentsConsistent(db, { allFresh: true })).toBe(await claimCount())
  })

  test('a write made between the read of the rows and the store of the body leaves the body stale, not wrong', async () => {
    const db = database.db
    await refreshClaimDocuments(db)
    const [{ id, generation }] = await executeRows<{ id: number; generation: number }>(
      db,
      sql`select claim_id as id, generation from claim_documents order by claim_id limit 1`,
    )
    // The refresher read the rows at `generation`; the claim changes before it stores.
    await db.execute(sql`update claims set magnitude = 'changed' where id = ${id}`)
    await db.execute(sql`update claim_documents set body = 'old' where claim_id = ${id} and generation = ${generation}`)
    const [row] = await executeRows<{ body: string | null }>(
      db,
      sql`select body from claim_documents where claim_id = ${id}`,
    )
    expect(row.body).toBeNull()
    await refreshClaimDocuments(db)
    await expectClaimDocumentsConsistent(db, { allFresh: true })
  })

  test('each trigger is needed: without it, a write leaves a stored item that the comparison finds wrong', async () => {
    const db = database.db
    const writes: [table: string, trigger: string, write: string][] = [
      [
        'claims',
        'claims_claim_documents_insert',
        `insert into claims (paper_id, subject_text, relation, object_text)
        select paper_id, 'x', 'increases', 'y' from claims limit 1`,
      ],
      [
        'claims',
        'claims_claim_documents_update',
        `update claims set magnitude = 'dropped?' where id = (select min(id) from claims)`,
      ],
      [
        'entities',
        'entities_claim_documents_update',
        `update entities set name = name || '!' where id =
        (select subject_entity_id from claims where subject_entity_id is not null limit 1)`,
      ],
      [
        'papers',
        'papers_claim_documents_update',
        `update papers set journal = 'Elsewhere' where id =
        (select paper_id from claims limit 1)`,
      ],
    ]
    for (const [table, trigger, write] of writes) {
      await refreshClaimDocuments(db)
      const found = await db
        .transaction(async (tx) => {
          await tx.execute(sql.raw(`alter table ${table} disable trigger ${trigger}`))
          await tx.execute(sql.raw(write))
          const error = await expectClaimDocumentsConsistent(tx as unknown as typeof db).then(
            () => null,
            (e: Error) => e,
          )
          throw new Rollback(error)
        })
        .catch((e) => (e instanceof Rollback ? e.found : e))
      expect(`${trigger}: ${found ? 'difference found' : 'none found'}`).toBe(`${trigger}: difference found`)
    }
    await expectClaimDocumentsConsistent(db, { allFresh: true })
  })

  test('a new serializer version makes every item stale at start-up; rebuild writes them all, resumably', async () => {
    const db = database.db
    const total = await claimCount()
    expect(await checkClaimDocumentsVersion(db, 'v-a')).toBe(total)
    expect(await checkClaimDocumentsVersion(db, 'v-a')).toBe(0)
    const seen: number[] = []
    await expect(
      rebuildClaimDocuments(db, {
        batch: 4,
        onProgress: (done) => {
          seen.push(done)
          throw new Error('stopped')
        },
      }),
    ).rejects.toThrow('stopped')
    expect(seen).toEqual([4])
    const progress: number[] = []
    const { resumedAfter } = await rebuildClaimDocuments(db, { batch: 4, onProgress: (done) => progress.push(done) })
    expect(resumedAfter).not.toBeNull()
    expect(progress[0]).toBe(Math.min(8, total))
    expect(progress.at(-1)).toBe(total)
    expect(await expectClaimDocumentsConsistent(db, { allFresh: true })).toBe(total)
  })
})
