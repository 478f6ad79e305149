/**
 * What the change-feed triggers (drizzle/0014) cost the writers, and what a feed page costs to read.
 * In one scratch PostgreSQL database, interleaved: the same work with the feed triggers enabled and
 * disabled (ALTER TABLE ... DISABLE TRIGGER), round after round, so machine load hits both alike.
 *   - bulk: the seed's COPY loader (src/seed/bulk-load.ts), --papers papers with stories, entities, claims;
 *   - store: what the analysis store does per paper, one transaction each: re-judge the paper, upsert
 *     its story, replace its claims (--store papers per round);
 *   - read: a first page (limit 100) of /papers?updated_since and of /api/v1/changes, and a page in the
 *     middle of a walk, on the loaded corpus.
 *
 *   bun scripts/bench-change-feed.ts [--papers 20000] [--store 300] [--rounds 3] [--url postgres://postgres@127.0.0.1:5432] [--triggers feed|documents]
 *   (--triggers documents: the stored documents' triggers of drizzle/0034 instead of the feed's; bulk and store only)
 */
import { sql } from 'drizzle-orm'
import { freshBenchDatabase } from './bench/database'
import { ensureEntities, loadBundles } from '../src/seed/bulk-load'
import { generateCorpus } from '../src/seed/corpus'
import { feedHorizon, feedStart, readChanges, readPaperChanges, FEED_RESOURCES } from '../src/resources/changes/queries'

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 ? process.argv[at + 1]! : fallback
}
const papers = Number(option('papers', '20000'))
const storePapers = Number(option('store', '300'))
const rounds = Number(option('rounds', '3'))
const server = option('url', 'postgres://postgres@127.0.0.1:5432')

// --triggers documents: the same rounds toggling the stored documents' triggers (drizzle/0034) instead, in a database of its own.
const which = option('triggers', 'feed')
if (which !== 'feed' && which !== 'documents') throw new Error('--triggers must be feed or documents')
const bench = await freshBenchDatabase(
  server,
  which === 'feed' ? 'geroscope_bench_change_feed' : 'geroscope_bench_documents',
  4,
)
const { database } = bench
const db = database.db
const corpus = { papers, seed: 1, endDate: '2026-11-20', days: 90 }

const FEED_TRIGGERS: [string, string][] = [
  ['papers', 'papers_feed_insert'],
  ['papers', 'papers_feed_update'],
  ['papers', 'papers_feed_delete'],
  ['papers', 'papers_feed_truncate'],
  ['stories', 'stories_feed_insert'],
  ['stories', 'stories_feed_update'],
  ['stories', 'stories_feed_delete'],
  ['stories', 'stories_feed_truncate'],
  ['claims', 'claims_feed_insert'],
  ['claims', 'claims_feed_update'],
  ['claims', 'claims_feed_delete'],
  ['claims', 'claims_feed_truncate'],
  ['entities', 'entities_feed_update'],
]
const DOCUMENT_TRIGGERS: [string, string][] = [
  ['papers', 'papers_documents_insert'],
  ['papers', 'papers_documents_update'],
  ...['stories', 'upvotes', 'paper_entities', 'claims'].flatMap((t) =>
    ['insert', 'update', 'delete', 'truncate'].map((e): [string, string] => [t, `${t}_documents_${e}`]),
  ),
  ['entities', 'entities_documents_update'],
  ['entities', 'entities_documents_truncate'],
]
async function feedTriggers(on: boolean) {
  for (const [table, trigger] of which === 'feed' ? FEED_TRIGGERS : DOCUMENT_TRIGGERS)
    await db.execute(sql.raw(`alter table ${table} ${on ? 'enable' : 'disable'} trigger ${trigger}`))
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!
const load = () => require('node:fs').readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')

const index = await ensureEntities(database)
const timings = {
  bulk: { on: [] as number[], off: [] as number[] },
  store: { on: [] as number[], off: [] as number[] },
}

async function bulkRound(on: boolean) {
  await feedTriggers(true)
  await db.execute(sql`truncate papers cascade`)
  await db.execute(sql`truncate change_feed`)
  await feedTriggers(on)
  await db.execute(sql`checkpoint`)
  const started = performance.now()
  await loadBundles(database, generateCorpus(corpus), index, { chunk: 10_000 })
  timings.bulk[on ? 'on' : 'off'].push((performance.now() - started) / 1000)
}

/** The analysis store's writes for one paper (src/pipeline/analysis/store.ts), on papers the bulk round loaded. */
async function storeRound(on: boolean, offset: number) {
  await feedTriggers(on)
  const ids = (
    await database.rows<{ id: string }>(sql`select id from papers order by id offset ${offset} limit ${storePapers}`)
  ).map((r) => r.id)
  const started = performance.now()
  for (const id of ids) {
    await db.transaction(async (tx) => {
      await tx.execute(
        sql`update papers set relevance = 2.5, topic = 'senescence', judged_at = now(), extracted_at = now(), updated_at = now() where id = ${id}`,
      )
      await tx.execute(sql`insert into stories (paper_id, headline, dek, body, why_it_matters, caveats, model, published_at)
        values (${id}, 'H', 'D', 'B', 'W', 'C', 'bench', now())
        on conflict (paper_id) do update set headline = excluded.headline || '.', dek = excluded.dek`)
      await tx.execute(sql`delete from claims where paper_id = ${id}`)
      await tx.execute(sql`insert into claims (paper_id, subject_text, relation, object_text)
        values (${id}, 'rapamycin', 'extends_lifespan', 'lifespan'), (${id}, 'rapamycin', 'decreases', 'mTOR')`)
    })
  }
  timings.store[on ? 'on' : 'off'].push((performance.now() - started) / storePapers)
}

console.error(
  `${which === 'feed' ? 'change-feed' : 'stored-document'} triggers: ${papers} papers per bulk round, ${storePapers} store transactions per round, ${rounds} rounds; load ${load()}`,
)
for (let round = 0; round < rounds; round++) {
  for (const on of round % 2 ? [true, false] : [false, true]) {
    await bulkRound(on)
    await storeRound(on, 0)
    await storeRound(on, storePapers) // a second set: some papers of the first have stories now
    console.error(
      `  round ${round + 1} triggers ${on ? 'on ' : 'off'}: bulk ${timings.bulk[on ? 'on' : 'off'].at(-1)!.toFixed(1)} s, ` +
        `store ${timings.store[on ? 'on' : 'off'].at(-1)!.toFixed(2)} ms/paper; load ${load()}`,
    )
  }
}

const fmt = (xs: number[], digits = 1) =>
  `median ${median(xs).toFixed(digits)}, runs ${xs.map((x) => x.toFixed(digits)).join(' / ')}`
if (which === 'documents') {
  await database.close()
  await bench.drop()
  console.log(
    `bulk load of ${papers} papers (s): triggers off ${fmt(timings.bulk.off)}; on ${fmt(timings.bulk.on)}; ` +
      `cost ${((median(timings.bulk.on) / median(timings.bulk.off) - 1) * 100).toFixed(1)}%`,
  )
  console.log(
    `analysis-store writes (ms per paper): off ${fmt(timings.store.off, 2)}; on ${fmt(timings.store.on, 2)}; ` +
      `cost ${(median(timings.store.on) - median(timings.store.off)).toFixed(2)} ms per paper`,
  )
  console.log(`load average at the end: ${load()}`)
  process.exit(0)
}
// The last round left the triggers on (even rounds end with on, odd with off): make sure the feed holds the corpus.
await feedTriggers(true)
await bulkRound(true)
timings.bulk.on.pop() // that load was for the reads, not a timed round
const [feedRows] = await database.rows<{ n: number; size: string }>(
  sql`select count(*)::int as n, pg_size_pretty(pg_total_relation_size('change_feed')) as size from change_feed`,
)

const reads = { first: [] as number[], middle: [] as number[], changes: [] as number[] }
const filters = { minRelevance: 2 }
for (let i = 0; i < 30; i++) {
  let started = performance.now()
  const after = await feedStart(db, ['paper'], '1970-01-01T00:00:00Z')
  const horizon = await feedHorizon(db)
  const first = await readPaperChanges(db, filters, {
    horizon,
    after,
    updatedSince: '1970-01-01T00:00:00Z',
    limit: 100,
  })
  reads.first.push(performance.now() - started)
  const middleRow = first.at(-1)!
  started = performance.now()
  const h2 = await feedHorizon(db)
  await readPaperChanges(db, filters, {
    horizon: h2,
    after: { txid: middleRow.txid, seq: String(Number(middleRow.seq) + papers / 2) },
    updatedSince: '1970-01-01T00:00:00Z',
    limit: 100,
  })
  reads.middle.push(performance.now() - started)
  started = performance.now()
  const h3 = await feedHorizon(db)
  await readChanges(db, FEED_RESOURCES, {
    horizon: h3,
    after: { txid: '0', seq: '0' },
    updatedSince: '0001-01-01T00:00:00Z',
    limit: 100,
  })
  reads.changes.push(performance.now() - started)
}
await database.close()
await bench.drop()

console.log(
  `bulk load of ${papers} papers (s): triggers off ${fmt(timings.bulk.off)}; on ${fmt(timings.bulk.on)}; ` +
    `cost ${((median(timings.bulk.on) / median(timings.bulk.off) - 1) * 100).toFixed(1)}%`,
)
console.log(
  `analysis-store writes (ms per paper): off ${fmt(timings.store.off, 2)}; on ${fmt(timings.store.on, 2)}; ` +
    `cost ${(median(timings.store.on) - median(timings.store.off)).toFixed(2)} ms per paper`,
)
console.log(`change_feed after a bulk load: ${feedRows!.n} rows, ${feedRows!.size}`)
console.log(
  `read (ms, 30 runs): /papers?updated_since first page of 100 p50 ${median(reads.first).toFixed(1)} p95 ${p95(reads.first).toFixed(1)}; ` +
    `mid-walk page p50 ${median(reads.middle).toFixed(1)} p95 ${p95(reads.middle).toFixed(1)}; /changes page p50 ${median(reads.changes).toFixed(1)} p95 ${p95(reads.changes).toFixed(1)}`,
)
console.log(`load average at the end: ${load()}`)
