/**
 * Bulk loading into PostgreSQL with COPY FROM STDIN. Each chunk of papers is one COPY per table;
 * the papers COPY of chunk k must commit before its stories, entities and claims go in (their
 * foreign keys check against committed rows), but those three run concurrently on their own
 * connections, alongside the papers COPY of chunk k + 1 and the generation of chunk k + 2.
 * Generation yields to the event loop every few hundred papers so the open COPY streams stay fed.
 *
 * With `skipTriggers` (see canSkipTriggers in bulk-load.ts) each child COPY runs in a transaction
 * with `SET LOCAL session_replication_role = replica`, which skips its foreign-key checks.
 */
import type postgres from 'postgres'
import type { PaperBundle } from './corpus'
import {
  CLAIM_COLUMNS, encodeBundle, PAPER_COLUMNS, PAPER_ENTITY_COLUMNS, STORY_COLUMNS, type EncodedChunk, type EntityIds,
} from './copy-format'

export type RowCounts = { papers: number; stories: number; paperEntities: number; claims: number }
export type ChunkDone = (papers: number) => void

const PIECE = 1 << 20 // characters per CopyData message: large enough to amortise, small enough to stream
const SLICE = 250 // papers generated between two yields to the event loop

const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve))

/** One COPY of `lines` into `table`; resolves when the server has committed it. */
export async function copyRows(
  sql: Pick<postgres.Sql, 'unsafe' | 'begin'>, table: string, columns: string[], lines: string[], skipTriggers = false,
): Promise<void> {
  if (lines.length === 0) return
  if (skipTriggers) {
    await sql.begin(async (tx) => {
      await tx.unsafe(`set local session_replication_role = replica`)
      await copyRows(tx as unknown as postgres.Sql, table, columns, lines)
    })
    return
  }
  const stream = await sql.unsafe(`copy ${table} (${columns.join(', ')}) from stdin`).writable()
  await new Promise<void>((resolve, reject) => {
    stream.once('error', reject)
    stream.once('finish', resolve)
    let piece = ''
    for (const line of lines) {
      piece += line
      if (piece.length >= PIECE) {
        stream.write(piece)
        piece = ''
      }
    }
    stream.end(piece)
  })
}

async function encodeChunk(bundles: Iterator<PaperBundle>, size: number, ids: EntityIds): Promise<EncodedChunk | null> {
  const chunk: EncodedChunk = { papers: [], stories: [], paperEntities: [], claims: [] }
  while (chunk.papers.length < size) {
    const next = bundles.next()
    if (next.done) break
    encodeBundle(next.value, ids, chunk)
    if (chunk.papers.length % SLICE === 0) await yieldToIo()
  }
  return chunk.papers.length > 0 ? chunk : null
}

export async function copyBundles(
  sql: postgres.Sql, bundles: Iterable<PaperBundle>, ids: EntityIds, chunkSize: number, skip: boolean, onChunk?: ChunkDone,
): Promise<RowCounts> {
  const counts: RowCounts = { papers: 0, stories: 0, paperEntities: 0, claims: 0 }
  const iterator = bundles[Symbol.iterator]()
  const pending: Promise<void>[] = []
  let papersCopied: Promise<void> = Promise.resolve()
  let failed: unknown = null
  const fail = (error: unknown) => { failed ??= error }

  while (failed === null) {
    const chunk = await encodeChunk(iterator, chunkSize, ids)
    if (!chunk) break
    counts.papers += chunk.papers.length
    counts.stories += chunk.stories.length
    counts.paperEntities += chunk.paperEntities.length
    counts.claims += chunk.claims.length
    const papersDone = papersCopied.then(() => copyRows(sql, 'papers', PAPER_COLUMNS, chunk.papers))
    const chunkDone = papersDone.then(() => Promise.all([
      copyRows(sql, 'stories', STORY_COLUMNS, chunk.stories, skip),
      copyRows(sql, 'paper_entities', PAPER_ENTITY_COLUMNS, chunk.paperEntities, skip),
      copyRows(sql, 'claims', CLAIM_COLUMNS, chunk.claims, skip),
    ])).then(() => onChunk?.(chunk.papers.length))
    papersDone.catch(fail)
    chunkDone.catch(fail)
    papersCopied = papersDone
    pending.push(chunkDone)
    // at most two chunks in the database's hands while the next one is generated
    while (pending.length > 2) await pending.shift()!.catch(fail)
  }
  await Promise.allSettled(pending)
  if (failed !== null) throw failed
  return counts
}
