/** GET /api/v1/search: ranked search; every /papers filter applies (decisions.md). */
import { Elysia, t } from 'elysia'
import { decodeCursor, encodeCursor } from '../cursor'
import { pageOf } from '../keyset'
import { Pagination, Paper, errorResponses } from '../model'
import { openApiParameters, pagingParams, parseParams, stringParam } from '../params'
import type { V1Context } from '../context'
import { paperFilterParams, paperFilters } from '../papers'
import { serializePaper } from '../papers/serialize'
import { invalidParameter } from '../../../http/errors'
import { assertSearchable, searchPapers } from './service'

const searchParams = {
  q: stringParam('Required. Words to search for in titles and abstracts: quoted phrases, OR and -exclusions.', 500),
  ...paperFilterParams,
  ...pagingParams,
}

const SearchHit = t.Object({ ...Paper.properties, score: t.Number({ minimum: 0, maximum: 1 }) })

export const searchModule = ({ db, baseUrl, secret }: V1Context) =>
  new Elysia({ name: 'v1-search' })
    .get('/api/v1/search', async ({ request }) => {
      const p = parseParams(request.url, searchParams)
      if (!p.q || !p.q.trim()) throw invalidParameter('q is required: the words to search for')
      const limit = p.limit ?? 25
      const filters = paperFilters(p)
      const cursorFilters = { ...filters, q: p.q }
      const after = p.cursor ? decodeCursor(secret, 'search', cursorFilters, p.cursor) : null
      await assertSearchable(db, p.q)
      const rows = await searchPapers(db, p.q, filters, limit, after && { score: Number(after[0]), id: String(after[1]) })
      const { items, hasMore } = pageOf(rows, limit)
      const last = items.at(-1)
      return {
        data: items.map((r) => ({
          ...serializePaper(r, r.storyHeadline === null ? null : { paperId: r.id, headline: r.storyHeadline, dek: r.storyDek! }, baseUrl),
          score: r.score,
        })),
        pagination: {
          next_cursor: hasMore && last ? encodeCursor(secret, 'search', cursorFilters, [last.score, last.id]) : null,
          has_more: hasMore,
          limit,
        },
      }
    }, {
      response: { 200: t.Object({ data: t.Array(SearchHit), pagination: Pagination }), ...errorResponses },
      detail: {
        summary: 'Search papers',
        description: 'Ranked full-text search: results by score (0 to 1, higher is better; the best hit need not be 1), then id ascending. Every /papers filter applies; min_relevance defaults to 2.',
        parameters: openApiParameters(searchParams),
      },
    })
