/**
 * The search seam: /api/v1/search asks a backend for one page of ranked papers. PostgreSQL full
 * text is the default (it needs nothing but the database); Meilisearch takes over when configured
 * and hands back to PostgreSQL, with a log line, whenever it cannot be reached.
 */
import type { PaperFilters, PaperListRow } from '../resources/papers/queries'

/** Who ranked a hit. Meilisearch falls back to PostgreSQL, so it is said per answer. */
export type RankedBy = 'postgres' | 'meilisearch'

/** A hit: the paper, its score, its place in the ranking (1 for the best hit) and who ranked it. */
export type SearchHitRow = PaperListRow & { score: number; rank: number; rankedBy: RankedBy }

/**
 * Where the previous page ended: results are ordered by score descending, then id ascending. `rank`
 * is that hit's place in the ranking (1 for the best). `rankedBy` says whose ranking it is: the two
 * backends score differently, so a score means something only to the backend that made it.
 */
export type SearchAfter = { score: number; id: string; rank: number; rankedBy: RankedBy }

export type SearchRequest = { q: string; filters: PaperFilters; limit: number; after: SearchAfter | null }

/**
 * One page of a ranking: up to `limit + 1` hits after `after`, so the caller knows whether another
 * page exists. `cutAt` is the number of hits the ranking stops at when more papers match than it
 * serves (Meilisearch ranks at most MEILI_MAX_HITS); null when every match can be paged to.
 */
export type SearchPage = { hits: SearchHitRow[]; cutAt: number | null }

export interface SearchBackend {
  readonly name: RankedBy
  search(request: SearchRequest): Promise<SearchPage>
}
