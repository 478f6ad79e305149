/**
 * What each export file holds: one line per item in exactly the JSON the Data API serves for it
 * (and, in the CSV file beside it, one row per item in the columns of the list endpoints' CSV),
 * read with the service's own statements and written by its own serializers, so the licensing
 * rules (an abstract, an entity mention or a claim's evidence only under an open licence) hold
 * in the files as they do in the API:
 * - papers: every paper, judged or not, as a /papers list item (Paper: judgement, story summary);
 * - stories: every published story as a /stories item (StoryItem, with its paper);
 * - entities: every entity some paper involves, as an /entities item;
 * - claims: every claim as a /claims item (ClaimItem, with its paper in brief).
 * Each is walked in primary-key order by keyset batches (an index range scan per batch, so batch
 * 500 costs what batch 1 costs), in the run's snapshot.
 */
import { serializeClaimItem } from '../../resources/claims/serialize'
import { serializeEntity } from '../../resources/entities/serialize'
import { serializeListedPaper } from '../../resources/papers/serialize'
import { serializeStoryItem } from '../../resources/stories/serialize'
import { CLAIM_ROW_FROM, claimListRow, type ClaimPageRow } from '../../resources/claims/queries'
import { PAPER_LIST_FROM, type PaperListTextRow } from '../../resources/papers/queries'
import { STORY_ROW_FROM, storyListRow, type StoryPageRow } from '../../resources/stories/queries'
import { OPEN_LICENSES } from '../../taxonomy'
import type { SnapshotQuery } from './snapshot'
import { CSV_COLUMNS } from '../../csv/columns'
import { csvLines } from '../../csv/rows'

export const EXPORT_RESOURCES = ['papers', 'stories', 'entities', 'claims'] as const
export type ExportResource = (typeof EXPORT_RESOURCES)[number]

type Resource<Row, Key> = {
  /** The batch after `after` (null: the first), at most `limit` rows, in key order. */
  read: (query: SnapshotQuery, after: Key | null, limit: number) => Promise<Row[]>
  keyOf: (row: Row) => Key
  serialize: (row: Row, base: string) => unknown
}

const open = [...OPEN_LICENSES]

const papers: Resource<PaperListTextRow, string> = {
  read: (query, after, limit) =>
    query(
      `${PAPER_LIST_FROM}
where p.id > $? order by p.id limit $?`,
      [open, after ?? '', limit],
    ),
  keyOf: (row) => row.id,
  serialize: (row, base) => serializeListedPaper(row, base),
}

const stories: Resource<StoryPageRow, string> = {
  read: (query, after, limit) =>
    query(
      `${STORY_ROW_FROM}
where s.paper_id > $? order by s.paper_id limit $?`,
      [open, after ?? '', limit],
    ),
  keyOf: (row) => row.paperId,
  serialize: (row, base) => serializeStoryItem(storyListRow(row), base),
}

type EntityBatchRow = {
  id: number
  type: string
  key: string
  name: string
  ids: Record<string, string>
  paperCount: number
}

const entities: Resource<EntityBatchRow, number> = {
  // As /entities lists them: only entities some paper involves (paper_count > 0).
  read: (query, after, limit) =>
    query(
      `select id, type, key, name, ids, paper_count as "paperCount"
from entities where paper_count > 0 and id > $?::integer order by id limit $?`,
      [after ?? 0, limit],
    ),
  keyOf: (row) => row.id,
  serialize: (row, base) => serializeEntity(row, base),
}

const claims: Resource<ClaimPageRow, number> = {
  read: (query, after, limit) =>
    query(
      `${CLAIM_ROW_FROM}
where c.id > $?::integer order by c.id limit $?`,
      [after ?? 0, limit],
    ),
  keyOf: (row) => row.id,
  serialize: (row, base) => serializeClaimItem(claimListRow(row), base),
}

// biome-ignore lint/suspicious/noExplicitAny: each resource has its own row and item types, passed on as they are
export const RESOURCES: Record<ExportResource, Resource<any, any>> = { papers, stories, entities, claims }

/**
 * The resource's NDJSON and CSV, one chunk of lines of each per batch: [ndjson, csv]. Both are
 * written from the same serialized items, so the CSV (columns of src/csv/columns.ts, the same
 * tables as the CSV answers of the list endpoints) holds what the NDJSON does, licensing included;
 * the CSV's first chunk starts with its header line (alone when the resource is empty). The next
 * batch is asked for before this one is serialized, so on PostgreSQL the database reads while the
 * process serializes and compresses. `count` learns how many items were produced.
 */
export async function* exportBatches(
  query: SnapshotQuery,
  resource: ExportResource,
  base: string,
  batchSize: number,
  count: (n: number) => void,
): AsyncGenerator<[string, string]> {
  const r = RESOURCES[resource]
  const columns = CSV_COLUMNS[resource]
  let pending = r.read(query, null, batchSize)
  for (let first = true; ; first = false) {
    const rows = await pending
    if (rows.length === batchSize) {
      pending = r.read(query, r.keyOf(rows[rows.length - 1]), batchSize)
      pending.catch(() => {}) // awaited on the next turn; a failure then is the run's failure
    }
    const items = rows.map((row) => r.serialize(row, base))
    if (items.length === 0 && !first) return
    let ndjson = ''
    for (const item of items) ndjson += JSON.stringify(item) + '\n'
    count(items.length)
    yield [ndjson, csvLines(items, columns, first)]
    if (rows.length < batchSize) return
  }
}
