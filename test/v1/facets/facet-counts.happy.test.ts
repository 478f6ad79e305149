/**
 * The precomputed counts (drizzle/0016_facet_counts.sql, 0019) against a live count(*) ... group by over
 * the same rows, through a bulk load, new papers, re-judgements, renamed and deleted entities, moved and
 * deleted claims and deleted papers: after every step each count table with its pending changes equals
 * its recount from scratch, every count= and group_by= answer the counts give equals the live one, and
 * after a compaction the count table alone equals the recount and nothing is left pending.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { loadCorpus } from '../../../src/seed/bulk-load'
import { claimFacets, countsAnswer as claimCountsAnswer } from '../../../src/modules/v1/facets/claims'
import {
  countPapersLive,
  groupPapersLive,
  paperFacets,
  countsAnswer,
  splitDates,
} from '../../../src/modules/v1/facets/papers'
import { GROUP_BY } from '../../../src/modules/v1/facets/params'
import { claimConditions } from '../../../src/resources/claims/queries'
import { statementFamily } from '../../../src/queries/prepared'
import { compactFacetCounts, countsOf, type CountTable } from '../../../src/queries/facet-counts'
import { runJob } from '../../../src/jobs/run-job'
import type { PaperFilters } from '../../../src/resources/papers/queries'
import postgres from 'postgres'
import { freshDatabase, testDriver, type TestDatabase } from '../../support/database'
import { insertClaim, insertEntity, insertPapers, linkEntity, paperRow } from '../../support/fixtures'

let database: TestDatabase
beforeAll(async () => {
  database = await freshDatabase()
  await loadCorpus(database, { papers: 400, seed: 18, endDate: '2026-10-20', days: 75 })
})
afterAll(async () => database?.close())

const rows = async (text: string) =>
  (await database.rows<Record<string, unknown>>(sql.raw(text))).map((r) => JSON.stringify(r))

// Each count table and the statement that recounts it from the rows themselves (the migration's backfill).
const RECOUNTS: Record<string, { keys: string; recount: string }> = {
  paper_facet_counts: {
    keys: 'indexed_date::text, topic, study_type, preprint, relevance_band',
    recount: `select indexed_date::text, topic, study_type, preprint, floor(relevance * 2)::smallint as relevance_band, count(*)::int as n
      from papers group by 1, 2, 3, 4, 5`,
  },
  paper_organism_counts: {
    keys: 'indexed_date::text, topic, study_type, preprint, relevance_band, organism',
    recount: `select p.indexed_date::text, p.topic, p.study_type, p.preprint, floor(p.relevance * 2)::smallint as relevance_band, o.name as organism, count(*)::int as n
      from (select distinct pe.paper_id, e.name from paper_entities pe join entities e on e.id = pe.entity_id where e.type = 'organism') o
      join papers p on p.id = o.paper_id group by 1, 2, 3, 4, 5, 6`,
  },
  paper_relation_counts: {
    keys: 'indexed_date::text, topic, study_type, preprint, relevance_band, relation',
    recount: `select p.indexed_date::text, p.topic, p.study_type, p.preprint, floor(p.relevance * 2)::smallint as relevance_band, r.relation, count(*)::int as n
      from (select distinct paper_id, relation from claims) r join papers p on p.id = r.paper_id group by 1, 2, 3, 4, 5, 6`,
  },
  paper_facet_counts_monthly: {
    keys: 'indexed_month::text, topic, study_type, preprint, relevance_band',
    recount: `select date_trunc('month', indexed_date)::date::text as indexed_month, topic, study_type, preprint, floor(relevance * 2)::smallint as relevance_band,
      count(*)::int as n from papers group by 1, 2, 3, 4, 5`,
  },
  paper_organism_counts_monthly: {
    keys: 'indexed_month::text, topic, study_type, preprint, relevance_band, organism',
    recount: `select date_trunc('month', p.indexed_date)::date::text as indexed_month, p.topic, p.study_type, p.preprint, floor(p.relevance * 2)::smallint as relevance_band,
      o.name as organism, count(*)::int as n
      from (select distinct pe.paper_id, e.name from paper_entities pe join entities e on e.id = pe.entity_id where e.type = 'organism') o
      join papers p on p.id = o.paper_id group by 1, 2, 3, 4, 5, 6`,
  },
  paper_relation_counts_monthly: {
    keys: 'indexed_month::text, topic, study_type, preprint, relevance_band, relation',
    recount: `select date_trunc('month', p.indexed_date)::date::text as indexed_month, p.topic, p.study_type, p.preprint, floor(p.relevance * 2)::smallint as relevance_band,
      r.relation, count(*)::int as n
      from (select distinct paper_id, relation from claims) r join papers p on p.id = r.paper_id group by 1, 2, 3, 4, 5, 6`,
  },
  claim_facet_counts: {
    keys: 'relation, organism, topic, study_type, preprint, indexed_month::text',
    recount: `select c.relation, c.organism, p.topic, p.study_type, p.preprint, date_trunc('month', p.indexed_date)::date::text as indexed_month, count(*)::int as n
      from claims c join papers p on p.id = c.paper_id group by 1, 2, 3, 4, 5, 6`,
  },
}

const PAPER_FILTERS: PaperFilters[] = [
  { minRelevance: 2 },
  { minRelevance: 0 },
  { minRelevance: 1.5, topic: ['senescence', 'mtor-rapamycin'] },
  { minRelevance: 2, studyType: ['animal'], preprint: false },
  { minRelevance: 0.5, since: '2026-09-01', until: '2026-09-30' }, // one whole month
  { minRelevance: 2, since: '2026-08-10', until: '2026-10-05' }, // days, a whole month, days
  { minRelevance: 1, since: '2026-09-14' }, // days, then whole months to the end
  { minRelevance: 0, until: '2026-09-14', topic: ['other'] }, // whole months, then days
  { minRelevance: 2, since: '2026-09-03', until: '2026-09-20' }, // days within one month
  { minRelevance: 2, since: '2026-10-01', until: '2026-09-01' }, // nothing
  { minRelevance: 3, preprint: true },
  { minRelevance: 2.25 }, // off the half-point grain: counted live
  { minRelevance: 2, q: 'lifespan' }, // full text: counted live
]

const liveClaims = statementFamily<{ key: string | boolean | null; count: number }>(
  (where) => `select c.relation as key, count(*)::int as count
  from claims c join papers p on p.id = c.paper_id left join entities se on se.id = c.subject_entity_id
  left join entities oe on oe.id = c.object_entity_id where ${where} group by 1 order by 2 desc, 1 asc nulls last`,
)

/** Each count table equals its recount: with its pending changes summed in, or (`compacted`) alone, with none pending. */
async function expectTablesExact(step: string, compacted: boolean) {
  for (const [table, { keys, recount }] of Object.entries(RECOUNTS)) {
    const from = compacted ? table : countsOf(table as CountTable)
    const kept = await rows(
      `select ${keys}, sum(n)::int as n from ${from} k group by ${keys} having sum(n) <> 0 order by ${keys}`,
    )
    const counted = await rows(`select * from (${recount}) r order by ${keys}`)
    expect({ step, compacted, table, rows: kept }).toEqual({ step, compacted, table, rows: counted })
    if (compacted)
      expect({ step, table, pending: await rows(`select * from ${table}_pending`) }).toEqual({
        step,
        table,
        pending: [],
      })
  }
}

async function expectCountsExact(step: string) {
  await expectTablesExact(step, false)
  const db = database.db
  for (const filters of PAPER_FILTERS) {
    for (const by of GROUP_BY) {
      const answer = await paperFacets(db, filters, { count: true, group_by: by })
      expect({ step, filters, by, answer }).toEqual({
        step,
        filters,
        by,
        answer: { total: await countPapersLive(db, filters), group_by: await groupPapersLive(db, filters, by) },
      })
    }
  }
  for (const filters of [
    {},
    { relation: 'extends_lifespan' },
    { organism: 'mice' },
    { relation: 'decreases', organism: 'elegans' },
    { subject: 'rapamycin' },
  ]) {
    for (const by of GROUP_BY) {
      const answer = await claimFacets(db, filters, { count: true, group_by: by })
      // The live answer for relation is checked in full; every grouping's total must be the live count.
      const live = await liveClaims(db, [], await claimConditions(db, filters), [])
      expect({ step, filters, by, total: answer.total }).toEqual({
        step,
        filters,
        by,
        total: live.reduce((s, g) => s + g.count, 0),
      })
      if (by === 'relation')
        expect({ step, filters, groups: answer.group_by }).toEqual({ step, filters, groups: live.slice(0, 200) })
    }
  }
  await compactFacetCounts(database)
  await expectTablesExact(step, true)
}

describe('precomputed counts equal a live count', () => {
  test('dates split into whole months and the days around them', () => {
    expect(splitDates()).toEqual({ months: [null, null], days: null })
    expect(splitDates('2026-08-10', '2026-10-05')).toEqual({
      months: ['2026-09-01', '2026-09-01'],
      days: [
        ['2026-08-10', '2026-08-31'],
        ['2026-10-01', '2026-10-05'],
      ],
    })
    expect(splitDates('2026-09-01', '2026-10-31')).toEqual({ months: ['2026-09-01', '2026-10-01'], days: null })
    expect(splitDates('2026-09-03', '2026-09-20')).toEqual({ months: null, days: [['2026-09-03', '2026-09-20']] })
    expect(splitDates(undefined, '2024-02-29')).toEqual({ months: [null, '2024-02-01'], days: null })
    expect(splitDates('2026-12-15')).toEqual({ months: ['2027-01-01', null], days: [['2026-12-15', '2026-12-31']] })
  })

  test('the filters split as documented between the counts and a live count', () => {
    expect(countsAnswer({ minRelevance: 2.5, topic: ['senescence'] })).toBe(true)
    expect(countsAnswer({ minRelevance: 2.25 })).toBe(false)
    expect(countsAnswer({ minRelevance: 2, q: 'mice' })).toBe(false)
    expect(claimCountsAnswer({ relation: 'increases', organism: 'mouse' })).toBe(true)
    expect(claimCountsAnswer({ subject: 'rapamycin' })).toBe(false)
    expect(claimCountsAnswer({ paperId: 'MED-1' })).toBe(false)
  })

  test('after the bulk load', async () => {
    const [{ n }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from claims`)
    expect(Number(n)).toBeGreaterThan(0) // the corpus has claims to count
    await expectCountsExact('bulk load')
  })

  test('after new papers with entities and claims, one organism named twice in one paper', async () => {
    const db = database.db
    const [a, b, c] = await insertPapers(db, [
      paperRow({ id: 'MED-91000001', indexedDate: '2026-10-20', topic: 'senescence', relevance: 2.5 }),
      paperRow({ id: 'MED-91000002', indexedDate: '2026-08-10', topic: null, studyType: null, relevance: null }),
      paperRow({ id: 'PPR-91000003', source: 'PPR', preprint: true, indexedDate: '2026-09-15', relevance: 1.99 }),
    ])
    const mouse = await insertEntity(db, 'organism', 'test:mouse-a', 'Test mouse')
    const mouse2 = await insertEntity(db, 'organism', 'test:mouse-b', 'Test mouse') // same name, another entity
    const gene = await insertEntity(db, 'gene', 'test:gene', 'Test gene')
    await linkEntity(db, a.id, a.indexedDate, mouse.id, 'model')
    await linkEntity(db, a.id, a.indexedDate, mouse.id, 'studied')
    await linkEntity(db, a.id, a.indexedDate, mouse2.id, 'model')
    await linkEntity(db, b.id, b.indexedDate, mouse2.id, 'model')
    await linkEntity(db, c.id, c.indexedDate, gene.id, 'target')
    await insertClaim(db, { paperId: a.id, relation: 'extends_lifespan', organism: 'Test mouse' })
    await insertClaim(db, { paperId: a.id, relation: 'extends_lifespan', organism: null })
    await insertClaim(db, { paperId: b.id, relation: 'decreases', organism: 'Test mouse' })
    await db.execute(sql`insert into claims (paper_id, subject_text, relation, object_text, organism)
      values (${c.id}, 's', 'increases', 'o', 'mice'), (${c.id}, 's2', 'increases', 'o2', 'mice')`)
    await expectCountsExact('new papers')
  })

  test('after re-judgements, one by one and many in one statement, and an upsert', async () => {
    await database.db.execute(sql`update papers set topic = 'senescence', relevance = 2.0 where id = 'MED-91000002'`)
    await database.db.execute(sql`update papers set relevance = relevance + 0.01 where id = 'MED-91000001'`) // same band: nothing moves
    await database.db.execute(sql`update papers set study_type = 'human', preprint = not preprint, relevance = round(least(3, coalesce(relevance, 0) + 0.5)::numeric, 2)::float8
      where id in (select id from papers order by id limit 60)`)
    await database.db.execute(
      sql`update papers set updated_at = now() where id in (select id from papers order by id desc limit 20)`,
    )
    const row = paperRow({ id: 'MED-91000001', topic: 'mtor-rapamycin', indexedDate: '2026-09-01', relevance: 0.5 })
    await database.db.execute(sql`insert into papers (id, source, title, authors, journal, indexed_date, url, relevance, topic)
      values (${row.id}, 'MED', 't', 'a', 'j', ${row.indexedDate}, 'https://x.test', ${row.relevance}, ${row.topic})
      on conflict (id) do update set topic = excluded.topic, indexed_date = excluded.indexed_date, relevance = excluded.relevance`)
    await expectCountsExact('re-judgements')
  })

  test('after a paper with claims changes only its relevance band', async () => {
    // Claim counts have no relevance: the old and new rows fall on one key, which one upsert must not touch twice.
    const [paper] = await database.rows<{ id: string }>(
      sql`select p.id from papers p where exists (select 1 from claims c where c.paper_id = p.id) order by p.id limit 1`,
    )
    await database.db.execute(
      sql`update papers set relevance = case when coalesce(relevance, 0) >= 2 then 0.5 else 2.5 end where id = ${paper!.id}`,
    )
    await expectCountsExact('a band change alone')
  })

  test('after entities renamed, merged and deleted, links moved and removed', async () => {
    const db = database.db
    // Two organisms of one paper renamed to one name in one statement: the paper counts once under it.
    await db.execute(sql`update entities set name = 'Renamed organism' where key in ('test:mouse-a', 'test:mouse-b')`)
    await db.execute(sql`update entities set paper_count = paper_count + 1`) // the minute's refresh: nothing moves
    await expectCountsExact('renamed')
    await db.execute(sql`update paper_entities set entity_id = (select id from entities where key = 'test:mouse-a')
      where entity_id = (select id from entities where key = 'test:gene')`)
    await db.execute(sql`delete from paper_entities where paper_id in (select id from papers order by id limit 15)`)
    await db.execute(sql`delete from entities where key = 'test:mouse-b'`)
    const organism = await database.rows<{
      id: number
    }>(sql`select id from entities where type = 'organism' and paper_count >= 0
      and id in (select entity_id from paper_entities) order by id limit 1`)
    await db.execute(sql`delete from entities where id = ${organism[0].id}`)
    await expectCountsExact('entities deleted')
  })

  test('after claims moved, re-extracted and deleted, and papers deleted', async () => {
    const db = database.db
    await db.execute(sql`update claims set relation = 'increases' where relation = 'extends_lifespan'`)
    await db.execute(
      sql`update claims set organism = 'Mus musculus', paper_id = 'MED-91000002' where paper_id = 'PPR-91000003'`,
    )
    await db.transaction(async (tx) => {
      await tx.execute(sql`delete from claims where paper_id in (select id from papers order by id desc limit 10)`)
      await tx.execute(sql`insert into claims (paper_id, subject_text, relation, object_text, organism)
        select id, 'again', 'decreases', 'o', 'Homo sapiens' from papers order by id desc limit 10`)
    })
    await db.execute(sql`delete from papers where id in (select id from papers order by id limit 25)`)
    await db.execute(sql`delete from papers where id = 'MED-91000001'`)
    await expectCountsExact('deleted')
  })

  test.skipIf(testDriver !== 'postgres')(
    'two open transactions counting the same keys do not wait for each other',
    async () => {
      // Upserting the counts made the second writer wait on the first's count rows until it committed (or deadlock,
      // with the month rows locked out of order); appended changes take no row locks.
      const one = postgres(database.url!, { max: 1, onnotice: () => {} })
      const two = postgres(database.url!, { max: 1, onnotice: () => {} })
      let release!: () => void
      const mayCommit = new Promise<void>((resolve) => {
        release = resolve
      })
      try {
        let wrote!: () => void
        const hasWritten = new Promise<void>((resolve) => {
          wrote = resolve
        })
        const paper = (
          id: string,
        ) => `insert into papers (id, source, title, authors, journal, indexed_date, url, relevance, topic, study_type)
        values ('${id}', 'MED', 't', 'a', 'j', '2026-09-14', 'https://x.test', 2.5, 'senescence', 'animal')`
        const claim = (id: string) =>
          `insert into claims (paper_id, subject_text, relation, object_text, organism) values ('${id}', 's', 'increases', 'o', 'mice')`
        const first = one.begin(async (tx) => {
          await tx.unsafe(paper('MED-92000001'))
          await tx.unsafe(claim('MED-92000001'))
          wrote()
          await mayCommit
        })
        await hasWritten
        await two.begin(async (tx) => {
          await tx.unsafe(`set local lock_timeout = '3s'`) // waiting on the first writer fails the test instead of hanging it
          await tx.unsafe(paper('MED-92000002'))
          await tx.unsafe(claim('MED-92000002'))
          await tx.unsafe(`update papers set relevance = 0.5 where id = 'MED-92000002'`)
        })
        release()
        await first
      } finally {
        release()
        await Promise.all([one.end(), two.end()])
      }
      await expectCountsExact('two open writers')
    },
  )

  test('outside the counts: exact under the bound, a flagged estimate above it', async () => {
    const db = database.db
    const q: PaperFilters = { minRelevance: 0, q: 'lifespan' }
    const live = await countPapersLive(db, q)
    expect(live).toBeGreaterThan(20) // the corpus has matches enough to cross a bound of 10
    // At or under the bound: the live answer, exact, with no flag.
    expect(await paperFacets(db, q, { count: true, group_by: 'topic' }, { exact: live, sample: 50 })).toEqual({
      total: live,
      group_by: await groupPapersLive(db, q, 'topic'),
    })
    // Above it: an estimate from the newest `sample` papers, scaled to the superset's exact size, flagged.
    const all = await countPapersLive(db, { minRelevance: 0 })
    const estimated = await paperFacets(db, q, { count: true, group_by: 'organism' }, { exact: 10, sample: all })
    // A sample holding every paper scales by 1: the estimate is then the live count itself.
    expect(estimated).toEqual({
      total: live,
      totalEstimated: true,
      group_by: await groupPapersLive(db, q, 'organism'),
      groupByEstimated: true,
    })
    const small = await paperFacets(
      db,
      { minRelevance: 2.25 },
      { count: true, group_by: 'topic' },
      { exact: 10, sample: 100 },
    )
    expect(small.totalEstimated).toBe(true)
    expect(small.groupByEstimated).toBe(true)
    const exact = await countPapersLive(db, { minRelevance: 2.25 })
    expect(Math.abs(small.total! - exact)).toBeLessThan(exact) // an estimate, not a guess: within the population
    expect(small.group_by!.reduce((s, g) => s + g.count, 0)).toBeGreaterThan(0)

    // Publication dates are not in the counts: counted live under the bound, estimated above it (the sample holds
    // the publication date the filter reads), with or without q and an off-grain min_relevance.
    for (const published of [
      { minRelevance: 0, publishedSince: '2026-01-01' },
      { minRelevance: 2.25, publishedUntil: '2026-12-31' },
      { minRelevance: 0, q: 'lifespan', publishedSince: '2026-01-01', publishedUntil: '2026-12-31' },
    ] as PaperFilters[]) {
      const n = await countPapersLive(db, published)
      expect({ published, n: n > 0 }).toEqual({ published, n: true })
      expect(await paperFacets(db, published, { count: true, group_by: 'topic' }, { exact: n, sample: 50 })).toEqual({
        total: n,
        group_by: await groupPapersLive(db, published, 'topic'),
      })
      expect(await paperFacets(db, published, { count: true, group_by: 'topic' }, { exact: 1, sample: all })).toEqual({
        total: n,
        totalEstimated: true,
        group_by: await groupPapersLive(db, published, 'topic'),
        groupByEstimated: true,
      })
    }

    const subject: Parameters<typeof claimFacets>[1] = { subject: 's' } // the claims added above, and any with an s in the subject
    const claimLive = await liveClaims(db, [], await claimConditions(db, subject), [])
    const claimTotal = claimLive.reduce((s, g) => s + g.count, 0)
    expect(claimTotal).toBeGreaterThan(10)
    expect(
      await claimFacets(db, subject, { count: true, group_by: 'relation' }, { exact: claimTotal, sample: 50 }),
    ).toEqual({ total: claimTotal, group_by: claimLive })
    const [{ n: allClaims }] = await database.rows<{ n: number }>(sql`select count(*)::int as n from claims`)
    expect(
      await claimFacets(db, subject, { count: true, group_by: 'relation' }, { exact: 10, sample: Number(allClaims) }),
    ).toEqual({ total: claimTotal, totalEstimated: true, group_by: claimLive, groupByEstimated: true })
  })

  test("a job run (the CLI's too, with the workers off) folds in the count changes its writes appended", async () => {
    const pending = async () =>
      (await database.rows<{ n: number }>(sql`select count(*)::int as n from paper_facet_counts_pending`))[0].n
    await runJob(database, 'counts-test', async () => {
      await database.db.execute(
        sql`update papers set topic = 'other' where id in (select id from papers order by id limit 5)`,
      )
      expect(Number(await pending())).toBeGreaterThan(0)
      return {}
    })
    expect(Number(await pending())).toBe(0)
    await expectCountsExact('a job run')
  })

  test('a rolled-back write leaves the counts as they were', async () => {
    const summed = `select ${RECOUNTS.paper_facet_counts.keys}, sum(n)::int as n from ${countsOf('paper_facet_counts')} k group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`
    const before = await rows(summed)
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`update papers set topic = 'other' where true`)
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    expect(await rows(summed)).toEqual(before)
  })
})
