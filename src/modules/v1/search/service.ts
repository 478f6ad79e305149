/**
 * Ranked search over papers with PostgreSQL full text (also on PGlite): title matches weigh more
 * than abstract matches (weights A and B), cover density rewards phrases and proximity, and the
 * rank is normalised into [0, 1) by rank / (rank + 1). Ties: id ascending (decisions.md).
 */
import { and, asc, eq, sql, type SQL } from 'drizzle-orm'
import { executeRows, type Db } from '../../../db/client'
import { papers, stories } from '../../../db/schema'
import { invalidParameter } from '../../../http/errors'
import { paperColumns, paperConditions, type PaperFilters, type PaperListRow } from '../papers/service'

const document = sql`(setweight(to_tsvector('english', ${papers.title}), 'A') || setweight(to_tsvector('english', coalesce(${papers.abstract}, '')), 'B'))`

export type SearchRow = PaperListRow & { score: number }

/** Refuses a query with nothing to search for (only stop words or symbols) instead of matching nothing. */
export async function assertSearchable(db: Db, q: string) {
  const [row] = await executeRows<{ n: number }>(db, sql`select numnode(websearch_to_tsquery('english', ${q})) as n`)
  if (Number(row.n) === 0) throw invalidParameter('q has no searchable words (only stop words or punctuation)')
}

export async function searchPapers(db: Db, q: string, filters: PaperFilters, limit: number, after: { score: number; id: string } | null) {
  const query = sql`websearch_to_tsquery('english', ${q})`
  const score = sql<number>`ts_rank_cd(${document}, ${query}, 32)::float8`
  const conditions: (SQL | undefined)[] = [...paperConditions({ ...filters, q: undefined }), sql`${document} @@ ${query}`]
  if (after) conditions.push(sql`(${score} < ${after.score}::float8 or (${score} = ${after.score}::float8 and ${papers.id} > ${after.id}))`)
  return db.select({ ...paperColumns, storyHeadline: stories.headline, storyDek: stories.dek, score })
    .from(papers)
    .leftJoin(stories, eq(stories.paperId, papers.id))
    .where(and(...conditions))
    .orderBy(sql`${score} desc`, asc(papers.id))
    .limit(limit + 1) as Promise<SearchRow[]>
}
