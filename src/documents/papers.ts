/**
 * Stored paper documents (issue 39): the `data` of /api/v1/papers/{id} kept as JSON text in
 * `paper_documents`, so a detail request reads one row and sends it instead of assembling a paper
 * from six tables and serializing it.
 *
 * Freshness and crash safety. Triggers (drizzle/0034) give every paper a row when it arrives and,
 * in the writing transaction itself, set its body to NULL and bump its generation whenever what the
 * document shows changes (the paper, its judgement, story, upvotes, entities, claims, an entity's
 * name; a withdrawn paper's row goes with it). A body is written back only by `storeBodies`, under
 * the generation read in the same statement (one snapshot) as the rows it was built from: a change
 * committed meanwhile has bumped the generation and the write is skipped. So a stored body is
 * always the document of the rows as they are; a stale one is NULL and served live; a `kill -9`
 * anywhere leaves either the old rows with their body or the new rows with a NULL body.
 *
 * The URLs' base. site_url and the story's url begin with PUBLIC_BASE_URL; a body holds them with
 * BASE_MARK (how JSON.stringify writes U+0001) where the base goes, and the reader puts the base in.
 * A body is stored only when BASE_MARK occurs exactly where URLs begin (checked at build); a paper
 * whose own text writes that sequence gets the body '' and is always served live.
 *
 * The builder's version. DOCUMENTS_VERSION fingerprints what the serializer makes of a fixed record:
 * a release that changes the shape changes it, and `checkDocumentsVersion` (at start-up, after the
 * migrations) then makes every body stale in one transaction, for the refresher to rewrite.
 */
import { eq, sql } from 'drizzle-orm'
import { executeRows, type Db } from '../db/client'
import { jobState } from '../db/schema'
import { PAPER_DETAIL_SELECT, paperDetailOf, type PaperDetail, type PaperDetailRow } from '../resources/papers/queries'
import { preparedStatement } from '../queries/prepared'
import { serializePaperDetail } from '../resources/papers/detail'
import { OPEN_LICENSES } from '../taxonomy'
import { paperItem, storyItem } from './paper-items'

import { rebuildInBatches, refreshInBatches, type RefreshCounts, type RefreshOptions } from './batches'
import { fingerprint, FINGERPRINT_PAPER } from './fingerprint'

const SENTINEL = '\u0001'
/** Where a stored body's URLs take the base: JSON.stringify's text of SENTINEL. */
export const BASE_MARK = '\\u0001'

/** A body to store for `detail`: its JSON with BASE_MARK for the base, or '' if it must be served live. */
export function documentBody(detail: PaperDetail): string {
  const text = JSON.stringify(serializePaperDetail(detail, SENTINEL))
  // Occurrences of BASE_MARK cannot overlap (it holds one backslash), and the URLs' are among them: if there
  // are exactly as many as URLs, every one is a URL's base.
  if (countOf(text, BASE_MARK) === 1 + (detail.story ? 1 : 0)) return text
  // Otherwise (a title holding U+0001, or a URL field this count does not know): exact, at twice the cost.
  const plain = JSON.stringify(serializePaperDetail(detail, ''))
  return text.replaceAll(BASE_MARK, '') === plain ? text : ''
}

function countOf(text: string, part: string): number {
  let n = 0
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) n++
  return n
}

/** The base as JSON string content (escaped as JSON.stringify escapes it inside a URL). */
const escapedBases = new Map<string, string>()
function escapedBase(base: string): string {
  let escaped = escapedBases.get(base)
  if (escaped === undefined) escapedBases.set(base, (escaped = JSON.stringify(base).slice(1, -1)))
  return escaped
}

/** A stored body as the JSON text of the document for `base`. */
export const documentText = (body: string, base: string) => body.replaceAll(BASE_MARK, escapedBase(base))

const storedBody = preparedStatement<{ body: string | null }>('select body from paper_documents where paper_id = $?', {
  genericPlan: true,
})

/** The stored `data` JSON of paper `id` for `base`, or null when there is none fresh (serve it live). */
export async function readPaperDocument(db: Db, id: string, base: string): Promise<string | null> {
  const [row] = await storedBody(db, [id])
  return row?.body ? documentText(row.body, base) : null
}

type BuildRow = PaperDetailRow & { generation: number }

const staleRows = preparedStatement<BuildRow>(`select d.generation, ${PAPER_DETAIL_SELECT}
from paper_documents d join papers p on p.id = d.paper_id
where d.body is null order by d.paper_id limit $?`)

// The bound on p.id too: with it on d.paper_id alone PostgreSQL merge-joined from the first paper on every batch
// (800,000 papers read for a batch of 500 at 1M papers, the rebuild slowing as it went).
const rowsAfter = preparedStatement<BuildRow>(`select d.generation, ${PAPER_DETAIL_SELECT}
from paper_documents d join papers p on p.id = d.paper_id
where d.paper_id > $? and p.id > $? order by d.paper_id limit $?`)

/**
 * Writes each row's body and list items (./paper-items.ts) where its generation is still the one read with the rows;
 * returns how many were written.
 */
async function storeBodies(db: Db, rows: BuildRow[]): Promise<number> {
  if (rows.length === 0) return 0
  const ids = rows.map((r) => r.id)
  const generations = rows.map((r) => r.generation)
  const details = rows.map(paperDetailOf)
  const bodies = details.map(documentBody)
  const items = details.map(paperItem)
  const storyItems = details.map(storyItem)
  const [written] = await executeRows<{ n: number }>(
    db,
    sql`with written as (
    update paper_documents d set body = v.body, item = v.item, story_item = v.story_item
    from unnest(${sql.param(ids)}::text[], ${sql.param(generations)}::int[], ${sql.param(bodies)}::text[],
      ${sql.param(items)}::text[], ${sql.param(storyItems)}::text[]) as v(id, generation, body, item, story_item)
    where d.paper_id = v.id and d.generation = v.generation
    returning 1)
  select count(*)::int as n from written`,
  )
  return Number(written?.n ?? 0)
}

const licences = () => [...OPEN_LICENSES]

export type { RefreshCounts }

/**
 * Writes the bodies of stale documents, oldest id first, `batch` at a time, until none is left, `maxMs`
 * has passed, `max` were read or `stopped()` says so (checked between batches). Safe beside writers and other
 * refreshers (see the top of this file).
 */
export function refreshPaperDocuments(db: Db, options: RefreshOptions = {}): Promise<RefreshCounts> {
  return refreshInBatches(
    (limit) => staleRows(db, [licences(), limit]),
    (rows) => storeBodies(db, rows),
    options,
    200,
  )
}

export const DOCUMENTS_REBUILD = 'documents-rebuild'

/**
 * Rebuilds every stored document, in id order, `batch` at a time, resumable: the last id done is kept in
 * job_state after each batch, and a run that finds it starts after it. Ends by refreshing whatever went
 * stale meanwhile and forgetting the position. `onProgress(done, total)` after each batch.
 */
export function rebuildPaperDocuments(
  db: Db,
  options: { batch?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<{ written: number; resumedAfter: string | null }> {
  return rebuildInBatches(
    db,
    {
      job: DOCUMENTS_REBUILD,
      start: '',
      count: async (after) => {
        const [counts] = await executeRows<{ total: number; done: number }>(
          db,
          sql`select count(*)::int as total,
    count(*) filter (where paper_id <= ${after})::int as done from paper_documents`,
        )
        return counts
      },
      rowsAfter: (after, batch) => rowsAfter(db, [licences(), after, after, batch]),
      idOf: (row) => row.id,
      store: (rows) => storeBodies(db, rows),
      refresh: () => refreshPaperDocuments(db),
    },
    { batch: options.batch ?? 500, onProgress: options.onProgress },
  )
}

/** A record that uses every field of the shape, to fingerprint the serializer with. */
const FINGERPRINT_RECORD: PaperDetail = {
  paper: FINGERPRINT_PAPER,
  story: {
    paperId: 'MED-1',
    headline: 'H',
    dek: 'D',
    body: 'B',
    whyItMatters: 'W',
    caveats: 'C',
    support: 2,
    model: 'm',
    publishedAt: '2020-01-03 00:00:00+00',
  },
  upvotes: 1,
  entities: [
    {
      type: 'gene',
      key: 'k',
      name: 'n',
      ids: { hgnc: '1' },
      role: 'studied',
      detail: { evidence: 'e', organism: 'mouse' },
    },
  ],
  claims: [
    {
      claim: {
        id: 1,
        paperId: 'MED-1',
        subjectText: 's',
        subjectEntityId: 1,
        relation: 'increases',
        objectText: 'o',
        objectEntityId: 2,
        organism: 'mouse',
        context: { dose: 'c' },
        direction: 'up',
        magnitude: 'm',
        evidence: 'e',
        confidence: 0.5,
        createdAt: '2020-01-03 00:00:00+00',
      } as PaperDetail['claims'][number]['claim'],
      subjectEntity: { type: 'gene', key: 'k', name: 'n' },
      objectEntity: null,
    },
  ],
}

/**
 * The serializers' fingerprint (FNV-1a of what they write for FINGERPRINT_RECORD: the body and both list items), with
 * the storage format's number (2: the list items).
 */
export const DOCUMENTS_VERSION = fingerprint(
  2,
  [documentBody, paperItem, storyItem].map((make) => make(FINGERPRINT_RECORD)).join('\n'),
)

export const DOCUMENTS_STATE = 'documents'

/**
 * At start-up: if the documents were built by another version of the serializer, makes them all stale and
 * records this version, in one transaction (a crash leaves the old version recorded, and the next start
 * does it again). Returns how many bodies went stale. Items go with their bodies, and so do items a release
 * before them (storage format 1, which knows no items) left beside a body it made stale.
 */
export async function checkDocumentsVersion(db: Db, version = DOCUMENTS_VERSION): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ state: jobState.state })
      .from(jobState)
      .where(eq(jobState.name, DOCUMENTS_STATE))
      .for('update')
    if (row?.state.version === version) return 0
    const stale =
      (
        await executeRows<{ n: number }>(
          tx as unknown as Db,
          sql`with stale as (
      update paper_documents set body = null, item = null, story_item = null, generation = generation + 1
      where body is not null or item is not null or story_item is not null returning 1)
      select count(*)::int as n from stale`,
        )
      )[0]?.n ?? 0
    await tx
      .insert(jobState)
      .values({ name: DOCUMENTS_STATE, state: { version } })
      .onConflictDoUpdate({ target: jobState.name, set: { state: { version }, updatedAt: new Date() } })
    return Number(stale)
  })
}
