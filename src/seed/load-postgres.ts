/**
 * Bulk loading into PostgreSQL with COPY FROM STDIN. Each chunk of papers is one transaction on one
 * connection: COPY papers, then its stories, entities and claims, then COMMIT. So a load that dies
 * at any point (kill -9, a lost server) leaves whole chunks only, never a paper without its
 * children, and the next run loads what is missing (bulk-load.ts). Two chunks are in the
 * database's hands at once, on two connections, while the next one is generated; generation
 * yields to the event loop every few hundred papers so the open COPY streams stay fed.
 *
 * With `skipTriggers` (see canSkipTriggers in bulk-load.ts) each chunk's transaction sets
 * `SET LOCAL session_replication_role = replica`, which skips the foreign-key checks.
 */
import type postgres from 'postgres'
import type { PaperBundle } from './corpus'
import {
  CLAIM_COLUMNS,
  encodeBundle,
  PAPER_COLUMNS,
  PAPER_ENTITY_COLUMNS,
  STORY_COLUMNS,
  HELD_STORY_COLUMNS,
  type EncodedChunk,
  type EntityIds,
} from './copy-format'

/** stories: published; heldStories: written but held back (support 1 or less). */
export type RowCounts = { papers: number; stories: number; heldStories: number; paperEntities: number; claims: number }
export type ChunkDone = (papers: number) => void

const PIECE = 1 << 20 // characters per CopyData message: large enough to amortise, small enough to stream
const SLICE = 250 // papers generated between two yields to the event loop

const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve))

type Rejectable = { reject: (error: unknown) => void }

/**
 * One COPY of `lines` into `table` on `sql` (a transaction, or the pool for a COPY of its own);
 * resolves when the server has taken every row, rejects with the server's reason when it refuses
 * them. postgres.js 3.4.9 never settles the stream when the refusal comes after the last row was
 * sent (porsager/postgres#1173): the error reaches only the query's own `reject`, which is
 * therefore listened to as well.
 */
export async function copyRows(
  sql: Pick<postgres.Sql, 'unsafe'>,
  table: string,
  columns: string[],
  lines: string[],
): Promise<void> {
  if (lines.length === 0) return
  const query = sql.unsafe(`copy ${table} (${columns.join(', ')}) from stdin`)
  const refused = new Promise<never>((_, reject) => {
    const own = query as unknown as Rejectable
    const settle = own.reject
    own.reject = (error) => {
      reject(error)
      settle(error)
    }
  })
  try {
    const stream = await Promise.race([query.writable(), refused])
    const written = new Promise<void>((resolve, reject) => {
      stream.on('error', reject) // on, not once: a write after a failure must not raise an unheard error
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
    await Promise.race([written, refused])
  } catch (error) {
    const e = error as { message?: string; detail?: string }
    throw new Error(`COPY into ${table} failed: ${e.message ?? String(error)}${e.detail ? ` (${e.detail})` : ''}`, {
      cause: error,
    })
  }
}

/** A chunk in one transaction: the papers first, so their children's foreign keys find them. */
async function copyChunk(sql: postgres.Sql, chunk: EncodedChunk, skipTriggers: boolean): Promise<void> {
  await sql.begin(async (tx) => {
    if (skipTriggers) await tx.unsafe(`set local session_replication_role = replica`)
    await copyRows(tx, 'papers', PAPER_COLUMNS, chunk.papers)
    await copyRows(tx, 'stories', STORY_COLUMNS, chunk.stories)
    await copyRows(tx, 'held_stories', HELD_STORY_COLUMNS, chunk.heldStories)
    await copyRows(tx, 'paper_entities', PAPER_ENTITY_COLUMNS, chunk.paperEntities)
    await copyRows(tx, 'claims', CLAIM_COLUMNS, chunk.claims)
  })
}

async function encodeChunk(bundles: Iterator<PaperBundle>, size: number, ids: EntityIds): Promise<EncodedChunk | null> {
  const chunk: EncodedChunk = { papers: [], stories: [], heldStories: [], paperEntities: [], claims: [] }
  while (chunk.papers.length < size) {
    const next = bundles.next()
    if (next.done) break
    encodeBundle(next.value, ids, chunk)
    if (chunk.papers.length % SLICE === 0) await yieldToIo()
  }
  return chunk.papers.length > 0 ? chunk : null
}

export async function copyBundles(
  sql: postgres.Sql,
  bundles: Iterable<PaperBundle>,
  ids: EntityIds,
  chunkSize: number,
  skip: boolean,
  onChunk?: ChunkDone,
): Promise<RowCounts> {
  const counts: RowCounts = { papers: 0, stories: 0, heldStories: 0, paperEntities: 0, claims: 0 }
  const iterator = bundles[Symbol.iterator]()
  const pending: Promise<void>[] = []
  let failed: unknown = null
  const fail = (error: unknown) => {
    failed ??= error
  }

  while (failed === null) {
    const chunk = await encodeChunk(iterator, chunkSize, ids)
    if (!chunk) break
    // Each chunk's count changes are folded in behind it (drizzle/0019), so readers never sum a whole load's.
    const done = copyChunk(sql, chunk, skip)
      .then(() => sql`select facet_counts_compact()`)
      .then(() => {
        counts.papers += chunk.papers.length
        counts.stories += chunk.stories.length
        counts.heldStories += chunk.heldStories.length
        counts.paperEntities += chunk.paperEntities.length
        counts.claims += chunk.claims.length
        onChunk?.(chunk.papers.length)
      })
    done.catch(fail)
    pending.push(done)
    // at most two chunks in the database's hands while the next one is generated
    while (pending.length > 2) await pending.shift()!.catch(fail)
  }
  await Promise.allSettled(pending)
  if (failed !== null) throw failed
  return counts
}
