/**
 * Ranked search through Meilisearch (MEILI_HOST). Meilisearch ranks the ids; the rows come from the
 * database, so a hit always shows the paper as it is now. Paging uses the same (score, id) cursor as
 * PostgreSQL: the best MEILI_MAX_HITS ids are fetched (ids and a few numbers only) and cut after the
 * cursor; one more is asked for, so that a ranking with more matches says it was cut. When
 * Meilisearch fails (down, no index, a refused key), the query is answered by PostgreSQL and a line
 * is logged.
 */
import { asc, eq, inArray } from 'drizzle-orm'
import { MatchingStrategies, Meilisearch, MeilisearchApiError, MeilisearchError } from 'meilisearch'
import type { Db } from '../../db/client'
import { papers, stories } from '../../db/schema'
import { paperColumns, type PaperListRow } from '../../resources/papers/queries'
import type { SearchBackend, SearchHitRow, SearchPage, SearchRequest } from '../backend'
import { MEILI_MAX_HITS } from './documents'
import { PostgresSearch } from '../postgres'
import { searchableReading } from '../syntax'
import { translateFilters } from './filters'
import { translateQuery } from './query'
import { log as logger } from '../../log'

export type MeiliConfig = { host: string; apiKey: string | null; index: string; timeoutMs?: number }

type Hit = { id: string; relevance?: number; indexed_day: number; _rankingScore?: number }

/**
 * Meilisearch's ranking score with the ties broken as PostgreSQL breaks them within a tier (by
 * relevance, then recency): three decimals of ranking score, then relevance in hundredths of its 0-3
 * scale, then the date. (PostgreSQL's score is its own: src/search/score.ts.)
 */
export function foldTieBreakers(textScore: number, relevance: number | undefined, indexedDay: number): number {
  const text = Math.floor(Math.min(textScore, 0.9999) * 1000) / 1000
  const rel = Math.floor(((relevance ?? 0) / 3) * 100) / 100
  const y = Math.floor(indexedDay / 10000),
    m = Math.floor(indexedDay / 100) % 100,
    d = indexedDay % 100
  const days = (Date.UTC(y, m - 1, d) - Date.UTC(1900, 0, 1)) / 86_400_000
  const recency = Math.min(Math.max(days / 73049, 0), 1)
  return text + 0.0009 * rel + 0.0000089 * recency
}

export function meiliClient(config: MeiliConfig): Meilisearch {
  return new Meilisearch({ host: config.host, apiKey: config.apiKey ?? undefined, timeout: config.timeoutMs ?? 2000 })
}

/**
 * Why Meilisearch failed to answer, or null when the error is not Meilisearch's (a database error,
 * say, which PostgreSQL could not get round either). Any Meilisearch failure falls back to
 * PostgreSQL, which can always answer the same question: not only a server down, timing out or
 * broken (5xx), but also no index yet (404 index_not_found: before the first sync, or deleted), a
 * key it refuses (401, 403), or an index whose settings are older than our requests (400).
 */
export function meilisearchFailure(error: unknown): string | null {
  if (error instanceof MeilisearchApiError) {
    return `HTTP ${error.response?.status ?? '?'}${error.cause?.code ? ` ${error.cause.code}` : ''}: ${error.message}`
  }
  return error instanceof MeilisearchError ? error.message : null
}

export class MeilisearchSearch implements SearchBackend {
  readonly name = 'meilisearch' as const
  private readonly client: Meilisearch
  private readonly fallback: PostgresSearch

  constructor(
    private readonly db: Db,
    private readonly config: MeiliConfig,
    private readonly log = (message: string) => logger.warn(message),
  ) {
    this.client = meiliClient(config)
    this.fallback = new PostgresSearch(db)
  }

  async search(request: SearchRequest): Promise<SearchPage> {
    // A ranking begun on PostgreSQL (Meilisearch had failed) is continued there, so that its pages fit.
    if (request.after?.rankedBy === 'postgres') return this.fallback.search(request)
    // PostgreSQL's reading of the query, stop words dropped (or the 400 for a query without words).
    const reading = await searchableReading(this.db, request.q)
    const branches = reading && translateQuery(reading)
    if (!branches) return this.fallback.search(request)
    let hits: Hit[]
    try {
      hits = await this.rankedIds(branches, translateFilters(request.filters))
    } catch (error) {
      const failure = meilisearchFailure(error)
      if (failure === null) throw error
      this.log(`search: Meilisearch failed (${failure}); answering from PostgreSQL`)
      // a 400 for a cursor into Meilisearch's ranking: PostgreSQL cannot continue it
      return this.fallback.search(request)
    }
    const cutAt = hits.length > MEILI_MAX_HITS ? MEILI_MAX_HITS : null
    const scored = hits
      .slice(0, MEILI_MAX_HITS)
      .map((h) => ({ id: h.id, score: foldTieBreakers(h._rankingScore ?? 0, h.relevance, h.indexed_day) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((h, i) => ({ ...h, rank: i + 1 }))
    const { after } = request
    const page = (
      after ? scored.filter((h) => h.score < after.score || (h.score === after.score && h.id > after.id)) : scored
    ).slice(0, request.limit + 1)
    return { hits: await this.rows(page), cutAt }
  }

  /** `branches`: one Meilisearch query per alternative of the query (query.ts), never empty. */
  private async rankedIds(branches: string[], filter: string[]): Promise<Hit[]> {
    const common = {
      filter,
      showRankingScore: true,
      attributesToRetrieve: ['id', 'relevance', 'indexed_day'],
      // Every word must match, as in PostgreSQL (Meilisearch's default, "last", drops words to find more).
      matchingStrategy: MatchingStrategies.ALL,
    }
    if (branches.length === 1) {
      const result = await this.client
        .index(this.config.index)
        .search<Hit>(branches[0], { ...common, limit: MEILI_MAX_HITS + 1 })
      return result.hits
    }
    // OR: one query per alternative, merged by ranking score; a paper found by two comes once.
    type Federated = { federation: { limit: number }; queries: (typeof common & { indexUid: string; q: string })[] }
    const result = await this.client.multiSearch<Federated, Hit>({
      federation: { limit: MEILI_MAX_HITS + 1 },
      queries: branches.map((q) => ({ ...common, indexUid: this.config.index, q })),
    })
    return result.hits
  }

  private async rows(page: { id: string; score: number; rank: number }[]): Promise<SearchHitRow[]> {
    if (page.length === 0) return []
    const found = (await this.db
      .select({ ...paperColumns, storyHeadline: stories.headline, storyDek: stories.dek })
      .from(papers)
      .leftJoin(stories, eq(stories.paperId, papers.id))
      .where(
        inArray(
          papers.id,
          page.map((h) => h.id),
        ),
      )
      .orderBy(asc(papers.id))) as PaperListRow[]
    const byId = new Map(found.map((r) => [r.id, r]))
    // A paper deleted since it was indexed is simply left out; the outbox removes it from the index.
    return page.flatMap((h) => {
      const row = byId.get(h.id)
      return row ? [{ ...row, score: h.score, rank: h.rank, rankedBy: this.name }] : []
    })
  }
}
