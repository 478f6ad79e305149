/**
 * Ranked search with PostgreSQL full text (also on PGlite), over the generated, GIN-indexed
 * `search_vector` (title and abstract) and `title_vector` columns.
 *
 * Ranking (tiers.ts): match tiers (the query tightly in the title, in the title, tightly anywhere,
 * anywhere), then judgement relevance, recency and id, folded into the score (score.ts). Each page
 * finds exactly the next hits after its cursor, without scoring every matching paper, so every
 * match can be paged to and a page deep in the ranking costs what the first one does: a walk of
 * the index from the cursor's place, or a GIN scan of the tier's candidates (tiers.ts).
 */
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { papers, stories } from '../db/schema'
import { invalidInput } from '../domain-errors'
import { paperColumns, paperConditions } from '../resources/papers/queries'
import type { SearchBackend, SearchHitRow, SearchPage, SearchRequest } from './backend'
import { expandQuery } from './synonyms'
import { tieredHits, tieredScore } from './tiers'

export type PostgresSearchOptions = {
  /** Papers walked in judgement order per tier before the GIN index is asked (tiers.ts). */
  walk?: number
  /** Whether entity names in the query also search their other names (synonyms.ts); default true. */
  synonyms?: boolean
}

/** Papers walked per tier by default. */
const WALK = 5000

export class PostgresSearch implements SearchBackend {
  readonly name = 'postgres' as const
  private readonly walk: number
  private readonly synonyms: boolean

  constructor(
    private readonly db: Db,
    options: PostgresSearchOptions = {},
  ) {
    this.walk = options.walk ?? WALK
    this.synonyms = options.synonyms ?? true
  }

  async search(request: SearchRequest): Promise<SearchPage> {
    const { after } = request
    // A Meilisearch score read as ours would resume at some other place, silently.
    if (after && after.rankedBy !== 'postgres') {
      throw invalidInput(
        'cursor continues a Meilisearch ranking, which cannot be continued now; repeat the search without cursor',
      )
    }
    const served = after?.rank ?? 0
    const rows = (await this.query(request)) as Omit<SearchHitRow, 'rank' | 'rankedBy'>[]
    return { hits: rows.map((row, i) => ({ ...row, rank: served + i + 1, rankedBy: this.name })), cutAt: null }
  }

  /** The statement for one page: up to `limit + 1` hits after `after`. Exposed for EXPLAIN. */
  query({ q, filters, limit, after }: SearchRequest) {
    const where = and(...paperConditions({ ...filters, q: undefined })) ?? sql`true`
    const hits = limit + 1
    // Filters on relevance and indexed_date alone leave the index enough to test titles with.
    const indexOnly = filters.studyType === undefined && filters.topic === undefined && filters.preprint === undefined
    const expansions = this.synonyms ? expandQuery(q) : []
    const tiered = tieredHits({ q, where, hits, walk: this.walk, indexOnly, after, expansions })
    const score = sql<number>`ranked.score`
    return this.db
      .select({ ...paperColumns, storyHeadline: stories.headline, storyDek: stories.dek, score })
      .from(sql`(${tiered} select id, ${tieredScore} as score from tiered) ranked`)
      .innerJoin(papers, sql`${papers.id} = ranked.id`)
      .leftJoin(stories, eq(stories.paperId, papers.id))
      .orderBy(sql`${score} desc`, asc(papers.id))
  }
}
