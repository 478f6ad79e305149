/**
 * Many papers in one statement: every id and every DOI asked for travel as two array parameters
 * (`= any($1)`, src/queries/any-of.ts), so the SQL text is one prepared statement whatever the batch
 * size, and the answer keeps the caller's order with a null where nothing matched.
 */
import { eq, or } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { papers, stories } from '../../../db/schema'
import { anyOf } from '../../../queries/any-of'
import { paperColumns, type PaperListRow } from '../../../queries/papers'
import type { PaperIdentifier } from './identifiers'

/** Rows for `identifiers`, in their order; null for one that matches no paper. */
export async function lookupPapers(db: Db, identifiers: PaperIdentifier[]): Promise<(PaperListRow | null)[]> {
  const ids = [...new Set(identifiers.flatMap((i) => (i.kind === 'id' ? [i.id] : [])))]
  const dois = [...new Set(identifiers.flatMap((i) => (i.kind === 'doi' ? [i.doi] : [])))]
  const rows = await db.select({ ...paperColumns, storyHeadline: stories.headline, storyDek: stories.dek })
    .from(papers)
    .leftJoin(stories, eq(stories.paperId, papers.id))
    // Both arrays always travel (one may be empty) so the statement text never varies.
    .where(or(anyOf(papers.id, ids), anyOf(papers.doi, dois))) as PaperListRow[]
  const byId = new Map(rows.map((r) => [r.id, r]))
  const byDoi = new Map<string, PaperListRow>()
  // A DOI held by two records (a preprint and its journal version) names the lowest id: MED before PPR.
  for (const r of [...rows].sort((a, b) => (a.id < b.id ? -1 : 1))) if (r.doi && !byDoi.has(r.doi)) byDoi.set(r.doi, r)
  return identifiers.map((i) => (i.kind === 'id' ? byId.get(i.id) : byDoi.get(i.doi)) ?? null)
}

/** The paper id an identifier names, or null when none: for /papers/doi:{doi} and /papers/pmid:{n}. */
export async function resolvePaperIdentifier(db: Db, identifier: PaperIdentifier): Promise<string | null> {
  if (identifier.kind === 'id') return identifier.id
  const rows = await db.select({ id: papers.id }).from(papers).where(eq(papers.doi, identifier.doi)).orderBy(papers.id).limit(1)
  return rows[0]?.id ?? null
}
