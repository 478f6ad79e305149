/**
 * Stored entity pages (issue 39): the first page of /api/v1/entities/{type}/{key} (no min_relevance, cursor or
 * fields=, the default page size) kept as JSON text in `entity_documents`, so the commonest entity request reads one
 * row instead of counting claims and reading 25 papers with their roles.
 *
 * Freshness is paper_documents' (src/documents/papers.ts): triggers (drizzle/0039) give each entity a row when it is
 * written and, in the writing transaction, set its body to NULL and bump its generation whenever the page changes
 * (the entity's fields and paper_count, its links, the claims naming it, a linked paper's PaperRef fields); a
 * deleted entity's row goes with it. A body is written only under the generation read in the same statement as its
 * rows. A stale page is built from the rows, as any other page is.
 *
 * The body is the answer's `data` with BASE_MARK where the URLs take the base; the cursor is signed with the
 * service's secret, so only its position is stored (next_position, NULL when no page follows) and the route signs it.
 */
import { eq, sql } from 'drizzle-orm'
import { executeRows, type Db } from '../db/client'
import { jobState } from '../db/schema'
import { storedEntityDetailPage, type EntityDetailPage } from '../resources/entities/queries'
import { serializeEntity, serializeEntityPaper } from '../resources/entities/serialize'
import { preparedStatement } from '../queries/prepared'
import { fingerprint, FINGERPRINT_PAPER } from './fingerprint'
import { BASE_MARK, documentText } from './papers'

const SENTINEL = '\u0001'

/** The page size stored: the contract's default (src/http/pager.ts DEFAULT_LIMIT). */
export const ENTITY_PAGE_SIZE = 25

/** The first page's `data` for `base`, as the live route writes it (`page` holds at most the page's papers). */
export function entityPageData(page: EntityDetailPage, base: string) {
  return {
    ...serializeEntity(page.entity, base),
    claim_count: page.claimCount,
    papers: page.papers.map(({ paper, roles }) => serializeEntityPaper(paper, roles, base)),
  }
}

/** Where the next page starts (the cursor's position after the page's last paper), or null on the last page. */
export function nextPositionOf(page: EntityDetailPage, limit = ENTITY_PAGE_SIZE): [string, string] | null {
  if (page.papers.length <= limit) return null
  const last = page.papers[limit - 1]
  return [last.indexedDate, last.paperId]
}

type StoredPage = { body: string; nextPosition: string | null }

/**
 * What to store for a first page read with one paper more than the page: its `data` JSON with BASE_MARK for the base
 * ('' if a text of its own writes the mark: served live) and its next position as JSON.
 */
export function entityDocumentOf(page: EntityDetailPage): StoredPage {
  const next = nextPositionOf(page)
  const shown = { ...page, papers: page.papers.slice(0, ENTITY_PAGE_SIZE) }
  const text = JSON.stringify(entityPageData(shown, SENTINEL))
  const plain = () => JSON.stringify(entityPageData(shown, ''))
  // One URL per paper (site_url) and the entity's api_url take the base; anything else writing the mark is checked.
  const body = countOf(text, BASE_MARK) === 1 + shown.papers.length || text.replaceAll(BASE_MARK, '') === plain()
  return { body: body ? text : '', nextPosition: next && JSON.stringify(next) }
}

function countOf(text: string, part: string): number {
  let n = 0
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) n++
  return n
}

const storedDocument = preparedStatement<{ body: string | null; nextPosition: string | null }>(
  `select d.body, d.next_position as "nextPosition" from entities e join entity_documents d on d.entity_id = e.id
  where e.type = $? and e.key = $?`,
  { genericPlan: true },
)

/**
 * The stored first page of entity type/key: its `data` JSON for `base` and the next page's position; null when there
 * is none fresh (serve it live; an unknown entity is answered there too).
 */
export async function readEntityDocument(
  db: Db,
  type: string,
  key: string,
  base: string,
): Promise<{ data: string; next: [string, string] | null } | null> {
  const [row] = await storedDocument(db, [type, key])
  if (!row?.body) return null
  return { data: documentText(row.body, base), next: row.nextPosition ? JSON.parse(row.nextPosition) : null }
}

const staleIds = preparedStatement<{ id: number }>(
  'select entity_id as id from entity_documents where body is null order by entity_id limit $?',
)
const idsAfter = preparedStatement<{ id: number }>(
  'select entity_id as id from entity_documents where entity_id > $? order by entity_id limit $?',
)

/** Builds each entity's page and writes it where its generation is still the one read with the rows. */
async function storeBodies(db: Db, entityIds: number[]): Promise<number> {
  const ids: number[] = []
  const generations: number[] = []
  const bodies: string[] = []
  const nexts: (string | null)[] = []
  for (const id of entityIds) {
    const page = await storedEntityDetailPage(db, id, ENTITY_PAGE_SIZE + 1)
    if (!page) continue // deleted meanwhile: its row went with it
    const stored = entityDocumentOf(page)
    ids.push(id)
    generations.push(page.generation)
    bodies.push(stored.body)
    nexts.push(stored.nextPosition)
  }
  if (ids.length === 0) return 0
  const [written] = await executeRows<{ n: number }>(
    db,
    sql`with written as (
    update entity_documents d set body = v.body, next_position = v.next
    from unnest(${sql.param(ids)}::integer[], ${sql.param(generations)}::int[], ${sql.param(bodies)}::text[],
      ${sql.param(nexts)}::text[]) as v(id, generation, body, next)
    where d.entity_id = v.id and d.generation = v.generation
    returning 1)
  select count(*)::int as n from written`,
  )
  return Number(written?.n ?? 0)
}

/** As refreshPaperDocuments (src/documents/papers.ts), for the entities' pages. */
export async function refreshEntityDocuments(
  db: Db,
  options: { batch?: number; maxMs?: number; max?: number; stopped?: () => boolean } = {},
): Promise<{ written: number; batches: number }> {
  const { batch = 50, maxMs = Number.POSITIVE_INFINITY, max = Number.POSITIVE_INFINITY } = options
  const stopped = options.stopped ?? (() => false)
  const until = performance.now() + maxMs
  const counts = { written: 0, batches: 0 }
  let read = 0
  while (read < max && performance.now() < until && !stopped()) {
    const rows = await staleIds(db, [Math.min(batch, max - read)])
    if (rows.length === 0) break
    read += rows.length
    counts.batches++
    const written = await storeBodies(
      db,
      rows.map((r) => r.id),
    )
    counts.written += written
    // Nothing written: every page read changed again meanwhile; the next call takes them.
    if (written === 0) break
  }
  return counts
}

export const ENTITY_DOCUMENTS_REBUILD = 'entity-documents-rebuild'

/** As rebuildPaperDocuments: every entity's page rewritten in id order, resumably (job_state keeps the last id). */
export async function rebuildEntityDocuments(
  db: Db,
  options: { batch?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<{ written: number; resumedAfter: number | null }> {
  const { batch = 200, onProgress } = options
  const [saved] = await db
    .select({ state: jobState.state })
    .from(jobState)
    .where(eq(jobState.name, ENTITY_DOCUMENTS_REBUILD))
  const resumedAfter = typeof saved?.state.after === 'number' ? saved.state.after : null
  let after = resumedAfter ?? 0
  const [{ total, done: before }] = await executeRows<{ total: number; done: number }>(
    db,
    sql`select count(*)::int as total, count(*) filter (where entity_id <= ${after})::int as done from entity_documents`,
  )
  let done = before
  let written = 0
  for (;;) {
    const rows = await idsAfter(db, [after, batch])
    if (rows.length === 0) break
    written += await storeBodies(
      db,
      rows.map((r) => r.id),
    )
    after = rows[rows.length - 1].id
    done += rows.length
    await db
      .insert(jobState)
      .values({ name: ENTITY_DOCUMENTS_REBUILD, state: { after } })
      .onConflictDoUpdate({ target: jobState.name, set: { state: { after }, updatedAt: new Date() } })
    onProgress?.(done, total)
  }
  written += (await refreshEntityDocuments(db)).written
  await db.delete(jobState).where(eq(jobState.name, ENTITY_DOCUMENTS_REBUILD))
  return { written, resumedAfter }
}

/** A page using every field of the shape, to fingerprint the serializer with. */
const FINGERPRINT_PAGE: EntityDetailPage = {
  entity: { id: 1, type: 'gene', key: 'k', name: 'n', ids: { hgnc: '1' }, paperCount: 2 },
  claimCount: 3,
  papers: [
    {
      indexedDate: '2020-01-03',
      paperId: 'MED-1',
      roles: ['studied'],
      paper: FINGERPRINT_PAPER,
    },
  ],
}

/** The entity page serializer's fingerprint (FNV-1a of what it writes for FINGERPRINT_PAGE), with the format's number. */
export const ENTITY_DOCUMENTS_VERSION = (() => {
  return fingerprint(1, entityDocumentOf(FINGERPRINT_PAGE).body)
})()

export const ENTITY_DOCUMENTS_STATE = 'entity-documents'

/** As checkDocumentsVersion, for the entities' pages: all made stale, in one transaction, when the version differs. */
export async function checkEntityDocumentsVersion(db: Db, version = ENTITY_DOCUMENTS_VERSION): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ state: jobState.state })
      .from(jobState)
      .where(eq(jobState.name, ENTITY_DOCUMENTS_STATE))
      .for('update')
    if (row?.state.version === version) return 0
    const [stale] = await executeRows<{ n: number }>(
      tx as unknown as Db,
      sql`with stale as (
      update entity_documents set body = null, next_position = null, generation = generation + 1
      where body is not null returning 1)
      select count(*)::int as n from stale`,
    )
    await tx
      .insert(jobState)
      .values({ name: ENTITY_DOCUMENTS_STATE, state: { version } })
      .onConflictDoUpdate({ target: jobState.name, set: { state: { version }, updatedAt: new Date() } })
    return Number(stale?.n ?? 0)
  })
}
