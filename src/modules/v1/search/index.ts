/** GET /api/v1/search: ranked search; every /papers filter applies (docs/contract-decisions.md). */
import { Elysia, t } from 'elysia'
import type { CursorPosition } from '../../../http/cursor'
import { pager } from '../../../http/pager'
import { Integer, Pagination, Paper, errorResponses, documented } from '../model'
import { openApiParameters, pagingParams, parseParams, stringParam } from '../params'
import type { V1Context } from '../context'
import { Q_MATCHES, paperFilterParams, paperFilters } from '../papers'
import { serializeListedPaper } from '../../../resources/papers/serialize'
import { fieldsParam, selectFields } from '../fields'
import { invalidParameter } from '../../../http/errors'
import type { SearchAfter } from '../../../search/backend'
import { MEILI_MAX_HITS } from '../../../search/meilisearch/documents'
import { assertSearchable } from '../../../search/syntax'
import { listAnswer } from '../csv/answer'
import { formatParam } from '../csv/format-param'

const SearchHit = t.Object({ ...Paper.properties, score: t.Number({ minimum: 0, maximum: 1 }) })

const searchParams = {
  q: { ...stringParam(`Words to search for: quoted phrases, OR and -exclusions. ${Q_MATCHES}`, 500), required: true },
  ...paperFilterParams,
  ...pagingParams,
  fields: fieldsParam(SearchHit, 'hit'),
  format: formatParam,
}

/** Pagination, plus whether the ranking stops before every match (an additive field). */
const SearchPagination = t.Object({
  ...Pagination.properties,
  truncated: t.Boolean({
    description:
      'True when more papers match than this ranking serves: the last page then has has_more false although matches ' +
      'remain (narrow the query or its filters to reach them). False when every match can be paged to.',
  }),
  max_hits: t.Optional(
    Integer({ minimum: 1, description: 'Present when truncated: the number of hits the ranking stops at.' }),
  ),
})

/** A cursor's position: the last hit's score, id and rank, and which backend ranked it. */
function searchAfter([score, id, rank, rankedBy]: CursorPosition): SearchAfter {
  if (rankedBy !== 'postgres' && rankedBy !== 'meilisearch')
    throw invalidParameter('cursor is not a cursor this API issued')
  return { score: Number(score), id: String(id), rank: Number(rank), rankedBy }
}

// Kept in the response cache as every other page is. With Meilisearch, whose index lags the tables,
// a change empties the cache twice: when it lands, and when the outbox that carried it to the index
// is drained (drizzle/0023), so no answer from the index as it was outlives its change.
export const searchModule = ({ db, baseUrl, secret, search, cache }: V1Context) =>
  new Elysia({ name: 'v1-search' }).get(
    '/api/v1/search',
    ({ request, set }) =>
      listAnswer({ cache, baseUrl }, 'search', request, set, async () => {
        const p = parseParams(request.url, searchParams)
        if (!p.q || !p.q.trim()) throw invalidParameter('q is required: the words to search for')
        const filters = paperFilters(p)
        const paging = pager(secret, 'search', { ...filters, q: p.q }, p)
        const after = paging.after && searchAfter(paging.after)
        const { hits, cutAt } = await search.search({ q: p.q, filters, limit: paging.limit, after })
        // Only an empty answer can come from a query of stop words alone: check why then, not on every search.
        if (hits.length === 0 && !after) await assertSearchable(db, p.q)
        const { items, pagination } = paging.page(hits, (r) => [r.score, r.id, r.rank, r.rankedBy])
        const cut = cutAt === null ? { truncated: false } : { truncated: true, max_hits: cutAt }
        return selectFields(
          {
            data: items.map((r) => ({ ...serializeListedPaper(r, baseUrl), score: r.score })),
            pagination: { ...pagination, ...cut },
          },
          p.fields,
        )
      }),
    {
      response: {
        200: documented(t.Object({ data: t.Array(SearchHit), pagination: SearchPagination })),
        ...errorResponses,
      },
      detail: {
        summary: 'Search papers',
        description:
          'Ranked full-text search: results by score (0 to 1, higher is better; the best hit need not be 1), then id ' +
          'ascending. Matches rank in tiers: the query in the title with its words together and in order; the query ' +
          'in the title; some of its words in the title; the query with its words together in the text (title and ' +
          'abstract); the query in the text. Within a tier, papers are ordered by judgement relevance (unjudged ' +
          'last), then recency, then id. ' +
          `${Q_MATCHES} Every match can be paged to by cursor, except when the service searches through Meilisearch, ` +
          `which ranks at ` +
          `most the ${MEILI_MAX_HITS.toLocaleString('en-US')} best matches: a ranking cut there says so in ` +
          `pagination.truncated and ` +
          'pagination.max_hits. Every /papers filter applies; min_relevance defaults to 2.',
        parameters: openApiParameters(searchParams),
      },
    },
  )
