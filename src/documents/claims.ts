/**
 * Stored claim items (issue 39): each claim's /api/v1/claims item kept as JSON text in `claim_documents`, so a list
 * page is its claims' stored texts joined, with no paper, entity or JSON work per item.
 *
 * Freshness is paper_documents' (src/documents/papers.ts): triggers (drizzle/0038) give each claim a row when it
 * is written and, in the writing transaction, set its body to NULL and bump its generation whenever the item changes
 * (the claim, its entities' names, its paper's brief or licence); a withdrawn paper's claims take their rows with
 * them. A body is written only under the generation read in the same statement as its rows. A page statement reads
 * each stale item's rows beside it (one statement, one snapshot) and builds that item as the live path does.
 *
 * Where the paper's site_url takes the base, a body holds BASE_MARK, as a paper's does.
 */
import { eq, sql } from 'drizzle-orm'
import { executeRows, type Db } from '../db/client'
import { jobState } from '../db/schema'
import {
  CLAIM_COLUMNS,
  CLAIM_JOINS,
  claimListRow,
  listClaimPage,
  type ClaimFilters,
  type ClaimListRow,
  type ClaimPageRow,
  type ClaimPageShape,
} from '../resources/claims/queries'
import { serializeClaimItem } from '../resources/claims/serialize'
import { preparedStatement } from '../queries/prepared'
import { rebuildInBatches, refreshInBatches, type RefreshCounts, type RefreshOptions } from './batches'
import { fingerprint } from './fingerprint'
import { BASE_MARK, documentText } from './papers'

const SENTINEL = '\u0001'

/** A body to store for the item of `row`: its JSON with BASE_MARK for the base, or '' if it must be served live. */
export function claimDocumentBody(row: ClaimListRow): string {
  const text = JSON.stringify(serializeClaimItem(row, SENTINEL))
  // One URL takes the base (the paper's site_url); a claim's own text could write the mark too.
  if (text.indexOf(BASE_MARK) === text.lastIndexOf(BASE_MARK) && text.includes(BASE_MARK)) return text
  const plain = JSON.stringify(serializeClaimItem(row, ''))
  return text.replaceAll(BASE_MARK, '') === plain ? text : ''
}

/** The item of `row` for `base` as JSON text, as the live path writes it. */
export const liveClaimItem = (row: ClaimListRow, base: string) => JSON.stringify(serializeClaimItem(row, base))

type DocumentPageRow = { claimId: number; pageCreatedAtText: string; document: string | null } & ClaimPageRow

/**
 * A page's claims with their stored items; a stale one's columns (CLAIM_COLUMNS) read beside it, in the same
 * snapshot, and null for the others, whose paper and entities are not read at all (OFFSET 0 keeps the lateral
 * subquery apart, so its condition on the stored body is tested before any join).
 */
const DOCUMENT_PAGE: ClaimPageShape = {
  select:
    `select c.id as "claimId", to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as ` +
    `"pageCreatedAtText", cd.body as "document", live.*`,
  joins: `left join claim_documents cd on cd.claim_id = c.id
  left join lateral (select ${CLAIM_COLUMNS} from papers p
    left join entities se on se.id = c.subject_entity_id left join entities oe on oe.id = c.object_entity_id
    where p.id = c.paper_id and coalesce(cd.body, '') = '' offset 0) live on true`,
  paged: true,
}

export type ClaimItemText = { id: number; createdAtText: string; json: string }

/** listClaims' page (at most `limit` + 1 claims) as each item's JSON text for `base`: stored, or built if stale. */
export async function listClaimItemTexts(
  db: Db,
  filters: ClaimFilters,
  limit: number,
  after: { createdAt: string; id: number } | null,
  base: string,
): Promise<ClaimItemText[]> {
  const rows = await listClaimPage<DocumentPageRow>(db, filters, limit, after, DOCUMENT_PAGE)
  return rows.map((r) => ({
    id: r.claimId,
    createdAtText: r.pageCreatedAtText,
    json: r.document ? documentText(r.document, base) : liveClaimItem(claimListRow(r), base),
  }))
}

type BuildRow = ClaimPageRow & { generation: number }

const BUILD_FROM = `from claim_documents d join claims c on c.id = d.claim_id ${CLAIM_JOINS}`
const staleRows = preparedStatement<BuildRow>(
  `select d.generation, ${CLAIM_COLUMNS} ${BUILD_FROM} where d.body is null order by d.claim_id limit $?`,
)
// The bound on c.id too: with it on d.claim_id alone PostgreSQL merge-joined claims to papers from the first claim
// on every batch (3.1 s a batch at 1.2M claims into a rebuild; 3 ms with both bounds).
const rowsAfter = preparedStatement<BuildRow>(
  `select d.generation, ${CLAIM_COLUMNS} ${BUILD_FROM}
  where d.claim_id > $?::integer and c.id > $?::integer order by d.claim_id limit $?`,
)

/** Writes each row's body where its generation is still the one read with the rows; returns how many were written. */
async function storeBodies(db: Db, rows: BuildRow[]): Promise<number> {
  if (rows.length === 0) return 0
  const ids = rows.map((r) => r.id)
  const generations = rows.map((r) => r.generation)
  const bodies = rows.map((r) => claimDocumentBody(claimListRow(r)))
  const [written] = await executeRows<{ n: number }>(
    db,
    sql`with written as (
    update claim_documents d set body = v.body
    from unnest(${sql.param(ids)}::integer[], ${sql.param(generations)}::int[], ${sql.param(bodies)}::text[]) as
      v(id, generation, body)
    where d.claim_id = v.id and d.generation = v.generation
    returning 1)
  select count(*)::int as n from written`,
  )
  return Number(written?.n ?? 0)
}

/** As refreshPaperDocuments (src/documents/papers.ts), for the claims' items. */
export function refreshClaimDocuments(db: Db, options: RefreshOptions = {}): Promise<RefreshCounts> {
  return refreshInBatches(
    (limit) => staleRows(db, [limit]),
    (rows) => storeBodies(db, rows),
    options,
    500,
  )
}

export const CLAIM_DOCUMENTS_REBUILD = 'claim-documents-rebuild'

/** As rebuildPaperDocuments: every claim's item rewritten in id order, resumably (job_state keeps the last id). */
export function rebuildClaimDocuments(
  db: Db,
  options: { batch?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<{ written: number; resumedAfter: number | null }> {
  return rebuildInBatches(
    db,
    {
      job: CLAIM_DOCUMENTS_REBUILD,
      start: 0,
      count: async (after) => {
        const [counts] = await executeRows<{ total: number; done: number }>(
          db,
          sql`select count(*)::int as total, count(*) filter (where claim_id <= ${after})::int as done
          from claim_documents`,
        )
        return counts
      },
      rowsAfter: (after, batch) => rowsAfter(db, [after, after, batch]),
      idOf: (row) => row.id,
      store: (rows) => storeBodies(db, rows),
      refresh: () => refreshClaimDocuments(db),
    },
    { batch: options.batch ?? 1000, onProgress: options.onProgress },
  )
}

/** A claim item using every field of the shape, to fingerprint the serializer with. */
const FINGERPRINT_ROW: ClaimListRow = {
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
    direction: 'increase',
    magnitude: 'm',
    evidence: 'e',
    confidence: 0.5,
    createdAt: '2020-01-03 00:00:00+00',
  },
  subjectEntity: { type: 'gene', key: 'k', name: 'n' },
  objectEntity: null,
  paper: {
    id: 'MED-1',
    title: 'T',
    doi: '10.1/x',
    journal: 'J',
    publishedDate: '2020-01-02',
    preprint: false,
    url: 'https://e/x',
    abstractLicense: 'cc by',
  },
  createdAtText: '2020-01-03T00:00:00.000000Z',
}

/** The claim serializer's fingerprint (FNV-1a of what it writes for FINGERPRINT_ROW), with the format's number. */
export const CLAIM_DOCUMENTS_VERSION = (() => {
  return fingerprint(1, claimDocumentBody(FINGERPRINT_ROW))
})()

export const CLAIM_DOCUMENTS_STATE = 'claim-documents'

/** As checkDocumentsVersion, for the claims' items: all made stale, in one transaction, when the version differs. */
export async function checkClaimDocumentsVersion(db: Db, version = CLAIM_DOCUMENTS_VERSION): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ state: jobState.state })
      .from(jobState)
      .where(eq(jobState.name, CLAIM_DOCUMENTS_STATE))
      .for('update')
    if (row?.state.version === version) return 0
    const [stale] = await executeRows<{ n: number }>(
      tx as unknown as Db,
      sql`with stale as (
      update claim_documents set body = null, generation = generation + 1 where body is not null returning 1)
      select count(*)::int as n from stale`,
    )
    await tx
      .insert(jobState)
      .values({ name: CLAIM_DOCUMENTS_STATE, state: { version } })
      .onConflictDoUpdate({ target: jobState.name, set: { state: { version }, updatedAt: new Date() } })
    return Number(stale?.n ?? 0)
  })
}
