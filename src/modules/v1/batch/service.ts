/**
 * Many papers in one statement: every id and every DOI asked for travel as two array parameters
 * (`= any($1)`), so the SQL text is one prepared statement whatever the batch size (fixed at load
 * time, src/queries/prepared.ts: no query building per request), and the answer keeps the caller's
 * order with a null where nothing matched.
 */
import { eq } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { papers } from '../../../db/schema'
import { OPEN_LICENSES } from '../../../taxonomy'
import { PAPER_LIST_FROM, type PaperListRow, type PaperListTextRow } from '../../../resources/papers/queries'
import { preparedStatement } from '../../../queries/prepared'
import type { PaperIdentifier } from './identifiers'

// The list's own columns (PAPER_SELECT: the abstract only under an open licence, its one value), by id or DOI.
const papersByIdOrDoi = preparedStatement<PaperListTextRow>(
  `${PAPER_LIST_FROM}
where p.id = any($?::text[]) or p.doi = any($?::text[])`,
  { genericPlan: true },
)

/** Rows for `identifiers`, in their order; null for one that matches no paper. */
export async function lookupPapers(db: Db, identifiers: PaperIdentifier[]): Promise<(PaperListRow | null)[]> {
  const ids = [...new Set(identifiers.flatMap((i) => (i.kind === 'id' ? [i.id] : [])))]
  const dois = [...new Set(identifiers.flatMap((i) => (i.kind === 'doi' ? [i.doi] : [])))]
  // Both arrays always travel (one may be empty) so the statement text never varies.
  const rows: PaperListRow[] = await papersByIdOrDoi(db, [[...OPEN_LICENSES], ids, dois])
  const byId = new Map(rows.map((r) => [r.id, r]))
  const byDoi = new Map<string, PaperListRow>()
  // A DOI held by two records (a preprint and its journal version) names the lowest id: MED before PPR.
  for (const r of [...rows].sort((a, b) => (a.id < b.id ? -1 : 1))) if (r.doi && !byDoi.has(r.doi)) byDoi.set(r.doi, r)
  return identifiers.map((i) => (i.kind === 'id' ? byId.get(i.id) : byDoi.get(i.doi)) ?? null)
}

/** The paper id an identifier names, or null when none: for /papers/doi:{doi} and /papers/pmid:{n}. */
export async function resolvePaperIdentifier(db: Db, identifier: PaperIdentifier): Promise<string | null> {
  if (identifier.kind === 'id') return identifier.id
  const rows = await db
    .select({ id: papers.id })
    .from(papers)
    .where(eq(papers.doi, identifier.doi))
    .orderBy(papers.id)
    .limit(1)
  return rows[0]?.id ?? null
}
