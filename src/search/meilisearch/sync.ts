/**
 * Keeping Meilisearch in step with the papers table. Writers leave paper ids in search_outbox in
 * the same transaction as their change (src/search/outbox.ts); `syncOutbox` sends the current rows
 * of those papers (or deletions, for papers gone) and removes the outbox rows only once
 * Meilisearch has applied the task. While Meilisearch is down the rows simply wait: nothing is lost.
 * `reindex` rebuilds the whole index into a fresh one and swaps it in, so searches never see a
 * half-built index.
 */
import { asc, gt, inArray, sql } from 'drizzle-orm'
import type { Meilisearch } from 'meilisearch'
import type { Db } from '../../db/client'
import { papers, searchOutbox } from '../../db/schema'
import { INDEX_SETTINGS, paperDocument, type PaperSource } from './documents'

const sourceColumns = {
  id: papers.id,
  title: papers.title,
  abstract: papers.abstract,
  relevance: papers.relevance,
  indexedDate: papers.indexedDate,
  publishedDate: papers.publishedDate,
  studyType: papers.studyType,
  topic: papers.topic,
  preprint: papers.preprint,
}

const TASK_TIMEOUT_MS = 120_000

/**
 * What an existing index needs: 'rebuild' when it was set up by an older version (other searchable
 * attributes or bound: its documents may be of an older shape too, so it is rebuilt:
 * src/search/index.ts), 'synonyms' when only the lexicon's synonyms changed (a settings update is
 * enough: Meilisearch applies synonyms to queries, not documents), else null.
 */
export async function settingsOutdated(client: Meilisearch, uid: string): Promise<'rebuild' | 'synonyms' | null> {
  const settings = await client.index(uid).getSettings()
  if (
    JSON.stringify(settings.searchableAttributes) !== JSON.stringify(INDEX_SETTINGS.searchableAttributes) ||
    settings.pagination?.maxTotalHits !== INDEX_SETTINGS.pagination.maxTotalHits ||
    // An index without published_day was built before documents carried it.
    JSON.stringify([...(settings.filterableAttributes ?? [])].map(String).sort()) !==
      JSON.stringify([...INDEX_SETTINGS.filterableAttributes].sort())
  )
    return 'rebuild'
  return sameSynonyms(settings.synonyms ?? {}, INDEX_SETTINGS.synonyms) ? null : 'synonyms'
}

/** Synonyms compared whatever the order Meilisearch lists them in. */
function sameSynonyms(a: Record<string, string[]>, b: Record<string, string[]>): boolean {
  const canonical = (s: Record<string, string[]>) =>
    JSON.stringify(
      Object.keys(s)
        .sort()
        .map((k) => [k, [...s[k]].sort()]),
    )
  return canonical(a) === canonical(b)
}

/** Puts the lexicon's synonyms in place on an index that has older ones. */
export async function updateSynonyms(client: Meilisearch, uid: string): Promise<void> {
  const task = await client
    .index(uid)
    .updateSettings({ synonyms: INDEX_SETTINGS.synonyms })
    .waitTask({ timeout: TASK_TIMEOUT_MS })
  if (task.status !== 'succeeded')
    throw new Error(`Meilisearch refused the synonyms: ${task.error?.message ?? task.status}`)
}

export async function ensureIndex(client: Meilisearch, uid: string): Promise<void> {
  // a no-op failure if it exists
  await client.createIndex(uid, { primaryKey: 'id' }).waitTask({ timeout: TASK_TIMEOUT_MS })
  const task = await client.index(uid).updateSettings(INDEX_SETTINGS).waitTask({ timeout: TASK_TIMEOUT_MS })
  if (task.status !== 'succeeded')
    throw new Error(`Meilisearch refused the index settings: ${task.error?.message ?? task.status}`)
}

async function applied(promise: ReturnType<ReturnType<Meilisearch['index']>['addDocuments']>, what: string) {
  const task = await promise.waitTask({ timeout: TASK_TIMEOUT_MS })
  if (task.status !== 'succeeded')
    throw new Error(`Meilisearch did not apply ${what}: ${task.error?.message ?? task.status}`)
}

/** Sends one batch of the outbox; returns how many papers were upserted and deleted. */
export async function syncOutbox(
  db: Db,
  client: Meilisearch,
  uid: string,
  batch = 1000,
): Promise<{ upserted: number; deleted: number }> {
  const queued = await db
    .select({ id: searchOutbox.id, paperId: searchOutbox.paperId })
    .from(searchOutbox)
    .orderBy(asc(searchOutbox.id))
    .limit(batch)
  if (queued.length === 0) return { upserted: 0, deleted: 0 }
  const ids = [...new Set(queued.map((q) => q.paperId))]
  const rows = (await db.select(sourceColumns).from(papers).where(inArray(papers.id, ids))) as PaperSource[]
  const present = new Set(rows.map((r) => r.id))
  const gone = ids.filter((id) => !present.has(id))
  const index = client.index(uid)
  if (rows.length > 0) await applied(index.addDocuments(rows.map(paperDocument)), 'the paper updates')
  if (gone.length > 0) await applied(index.deleteDocuments(gone), 'the paper deletions')
  // Only the rows read: rows committed meanwhile stay for the next run, even those with a smaller
  // id (a transaction takes its ids when it inserts, not when it commits).
  await db.delete(searchOutbox).where(
    inArray(
      searchOutbox.id,
      queued.map((q) => q.id),
    ),
  )
  return { upserted: rows.length, deleted: gone.length }
}

/** Drains the outbox completely (the worker calls this every minute). */
export async function drainOutbox(
  db: Db,
  client: Meilisearch,
  uid: string,
): Promise<{ upserted: number; deleted: number }> {
  const total = { upserted: 0, deleted: 0 }
  for (;;) {
    const done = await syncOutbox(db, client, uid)
    total.upserted += done.upserted
    total.deleted += done.deleted
    if (done.upserted + done.deleted === 0) return total
  }
}

/** Rebuilds the index from every paper, then swaps it in; `onProgress` gets the papers sent so far. */
export async function reindex(
  db: Db,
  client: Meilisearch,
  uid: string,
  onProgress: (done: number, total: number) => void = () => {},
) {
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(papers)
  // The outbox rows visible now are covered by the rebuild, which reads their papers later. Rows
  // committed from here on (whatever their id: ids are taken at insert, not at commit) may hold
  // changes the rebuild missed, and stay for the next drain, after the swap. The caller keeps
  // drains out meanwhile (src/search/index.ts).
  const covered = (await db.select({ id: searchOutbox.id }).from(searchOutbox)).map((r) => r.id)
  const fresh = `${uid}_rebuild`
  await client.deleteIndex(fresh).waitTask({ timeout: TASK_TIMEOUT_MS })
  await ensureIndex(client, fresh)
  await ensureIndex(client, uid)
  let last = ''
  let done = 0
  for (;;) {
    const rows = (await db
      .select(sourceColumns)
      .from(papers)
      .where(gt(papers.id, last))
      .orderBy(asc(papers.id))
      .limit(5000)) as PaperSource[]
    if (rows.length === 0) break
    await applied(client.index(fresh).addDocuments(rows.map(paperDocument)), 'a reindex batch')
    last = rows[rows.length - 1].id
    done += rows.length
    onProgress(done, total)
  }
  const swap = await client
    .swapIndexes([{ indexes: [uid, fresh], rename: false }])
    .waitTask({ timeout: TASK_TIMEOUT_MS })
  if (swap.status !== 'succeeded')
    throw new Error(`Meilisearch could not swap in the rebuilt index: ${swap.error?.message ?? swap.status}`)
  await client.deleteIndex(fresh).waitTask({ timeout: TASK_TIMEOUT_MS })
  // At least one delete, even of no rows: it tells every process to drop answers of the old index (drizzle/0023).
  for (let i = 0; i === 0 || i < covered.length; i += 10_000) {
    await db
      .delete(searchOutbox)
      .where(sql`${searchOutbox.id} = any(${sql.param(covered.slice(i, i + 10_000))}::bigint[])`)
  }
  return { papers: done }
}
