/** GET /api/v1/search: ranked search; every /papers filter applies (decisions.md). */
import { Elysia, t } from 'elysia'
import type { CursorPosition } from '../cursor'
import { pager } from '../pager'
import { Pagination, Paper, errorResponses, documented } from '../model'
import { openApiParameters, pagingParams, parseParams, stringParam } from '../params'
import type { V1Context } from '../context'
import { paperFilterParams, paperFilters } from '../papers'
import { serializeListedPaper } from '../papers/serialize'
import { invalidParameter } from '../../../http/errors'
import { MAX_RANKED_HITS, type SearchAfter } from '../../../search/backend'
import { assertSearchable } from '../../../search/syntax'

const searchParams = {
  q: { ...stringParam('Words to search for in titles, keywords and abstracts: quoted phrases, OR and -exclusions.', 500), required: true },
  ...paperFilterParams,
  ...pagingParams,
}

const SearchHit = t.Object({ ...Paper.properties, score: t.Number({ minimum: 0, maximum: 1 }) })

/** A cursor's position: the last hit's score, id and rank, and which backend ranked it. */
function searchAfter([score, id, rank, rankedBy]: CursorPosition): SearchAfter {
  if (rankedBy !== 'postgres' && rankedBy !== 'meilisearch') throw invalidParameter('cursor is not a cursor this API issued')
  return { score: Number(score), id: String(id), rank: Number(rank), rankedBy }
}

export const searchModule = ({ db, baseUrl, secret, search }: V1Context) =>
  new Elysia({ name: 'v1-search' })
    .get('/api/v1/search', async ({ request }) => {
      const p = parseParams(request.url, searchParams)
      if (!p.q || !p.q.trim()) throw invalidParameter('q is required: the words to search for')
      const filters = paperFilters(p)
      const paging = pager(secret, 'search', { ...filters, q: p.q }, p)
      const after = paging.after && searchAfter(paging.after)
      const rows = await search.search({ q: p.q, filters, limit: paging.limit, after })
      // Only an empty answer can come from a query of stop words alone: check why then, not on every search.
      if (rows.length === 0 && !after) await assertSearchable(db, p.q)
      const { items, pagination } = paging.page(rows, (r) => [r.score, r.id, r.rank, r.rankedBy])
      return { data: items.map((r) => ({ ...serializeListedPaper(r, baseUrl), score: r.score })), pagination }
    }, {
      response: { 200: documented(t.Object({ data: t.Array(SearchHit), pagination: Pagination })), ...errorResponses },
      detail: {
        summary: 'Search papers',
        description: 'Ranked full-text search: results by score (0 to 1, higher is better; the best hit need not be 1), then id ascending. '
          + 'Matches rank in tiers: the query in the title with its words together and in order; the query in the title; some of its '
          + 'words in the title; the query with its words together in the text (title, keywords, MeSH, abstract); the query in the text. '
          + 'Within a tier, papers are ordered by judgement relevance (unjudged last), then recency, then id. '
          + `At most the ${MAX_RANKED_HITS} best matches are returned. Every /papers filter applies; min_relevance defaults to 2.`,
        parameters: openApiParameters(searchParams),
      },
    })
