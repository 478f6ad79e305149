/**
 * Ranked search with PostgreSQL full text (also on PGlite), over the generated, GIN-indexed
 * `search_vector` (title A, keywords and MeSH B, abstract C) and `title_vector` columns.
 *
 * Ranking: a paper whose title matches the whole query comes first; within that, cover density
 * (ts_rank_cd) rewards weight, phrases and proximity. Ties in that text score are broken by the
 * judgement's relevance, then recency, folded into the score's last digits so that "score
 * descending, then id ascending" (decisions.md) keeps the order and the score stays in [0, 1).
 *
 * Speed: a very common word ("aging") matches half the corpus, and ranking every match reads every
 * matching abstract's vector. Instead the candidates are the best-judged matches in the title
 * (TITLE_CANDIDATES) and the best-judged matches anywhere (MAX_RANKED_HITS), both found by index;
 * only those are ranked, and the best MAX_RANKED_HITS of them are the results. A query with at most
 * MAX_RANKED_HITS matches has them all among the candidates, so its ranking is exact.
 */
import { and, asc, eq, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client'
import { papers, stories } from '../db/schema'
import { paperColumns, paperConditions } from '../modules/v1/papers/service'
import { MAX_RANKED_HITS, type SearchBackend, type SearchHitRow, type SearchRequest } from './backend'

/** The parsed query: quoted phrases, OR, -exclusions (websearch syntax), accents folded, GLP-1 = GLP1. */
export const tsquery = (q: string) => sql`geroscope_tsquery(${q})`

/** The same with phrases loosened to AND: for choosing candidates, never for the final match. */
const looseTsquery = (q: string) => sql`geroscope_tsquery_loose(${q})`

/** The /papers `q` filter: the same query language as /search, matched against the stored vector. */
export const matchesQuery = (q: string): SQL => sql`${papers.searchVector} @@ ${tsquery(q)}`

/** Title matches ranked besides the MAX_RANKED_HITS best-judged matches anywhere. */
const TITLE_CANDIDATES = 100
/** Papers walked in order of judgement before a query counts as rare (see `query`). */
const WALK = 5000

// Title weighs 1.0, keywords and MeSH 0.4, the abstract 0.2 (array order: D, C, B, A).
const WEIGHTS = sql.raw(`'{0.1, 0.2, 0.4, 1.0}'::float4[]`)

function scoreOf(query: SQL): SQL<number> {
  const rank = sql`ts_rank_cd(${WEIGHTS}, ${papers.searchVector}, ${query})`
  const text = sql`(0.5 * (${papers.titleVector} @@ ${query})::int + 0.5 * (${rank} / (${rank} + 1)))`
  // Three decimals of text score; then relevance in hundredths of its 0-3 scale; then the date.
  const relevance = sql`floor(coalesce(${papers.relevance}, 0) / 3 * 100) / 100`
  const recency = sql`least(greatest((${papers.indexedDate} - date '1900-01-01')::float8 / 73049, 0), 1)`
  return sql<number>`(floor(${text} * 1000) / 1000 + 0.0009 * ${relevance} + 0.0000089 * ${recency})::float8`
}

export class PostgresSearch implements SearchBackend {
  readonly name = 'postgres' as const

  constructor(private readonly db: Db) {}

  search(request: SearchRequest): Promise<SearchHitRow[]> {
    return this.query(request) as Promise<SearchHitRow[]>
  }

  /** The query builder, for EXPLAIN in benchmarks. */
  query({ q, filters, limit, after }: SearchRequest) {
    const query = tsquery(q)
    const loose = looseTsquery(q)
    const filtersSql = paperConditions({ ...filters, q: undefined })
    const where = and(...filtersSql) ?? sql`true`
    const prior = sql`${papers.relevance} desc nulls last, ${papers.indexedDate} desc, ${papers.id}`
    // The best-judged title matches, which lead the ranking (an index-only scan for common words).
    const titled = sql`select ${papers.id} from ${papers} where ${papers.titleVector} @@ ${loose} and ${where} order by ${prior} limit ${TITLE_CANDIDATES}`
    // The best-judged matches anywhere. A common query finds them within the first WALK papers in
    // that order; only when it does not is the GIN index asked, for every match. (The planner cannot
    // be left to choose: it misjudges how often words occur together, and a bitmap scan over 100,000
    // papers holding "dietary" and "restriction" took 2 s where this walk takes milliseconds.)
    const walked = sql`select w.id from (select ${papers.id}, ${papers.relevance}, ${papers.indexedDate}, ${papers.searchVector} from ${papers}
      where ${where} order by ${prior} limit ${WALK}) w
      where w.search_vector @@ ${loose} order by w.relevance desc nulls last, w.indexed_date desc, w.id limit ${MAX_RANKED_HITS}`
    const indexed = sql`select ${papers.id} from ${papers} where ${papers.searchVector} @@ ${loose} and ${where}
      and (select count(*) from walked) < ${MAX_RANKED_HITS} order by ${prior} limit ${MAX_RANKED_HITS}`
    const pool = sql`with walked as materialized (${walked}) (${titled}) union (select id from walked) union (${indexed})`
    const score = scoreOf(query)
    const ranked = this.db.$with('ranked').as(
      this.db.select({ id: papers.id, score: sql<number>`${score}`.as('score') }).from(papers)
        .where(and(sql`${papers.id} in (${pool})`, sql`${papers.searchVector} @@ ${query}`))
        .orderBy(sql`${score} desc`, asc(papers.id))
        .limit(MAX_RANKED_HITS),
    )
    const conditions: SQL[] = [eq(papers.id, ranked.id)]
    if (after) conditions.push(sql`(${ranked.score} < ${after.score}::float8 or (${ranked.score} = ${after.score}::float8 and ${papers.id} > ${after.id}))`)
    return this.db.with(ranked)
      .select({ ...paperColumns, storyHeadline: stories.headline, storyDek: stories.dek, score: ranked.score })
      .from(ranked)
      .innerJoin(papers, eq(papers.id, ranked.id))
      .leftJoin(stories, eq(stories.paperId, papers.id))
      .where(and(...conditions))
      .orderBy(sql`${ranked.score} desc`, asc(papers.id))
      .limit(limit + 1)
  }
}
