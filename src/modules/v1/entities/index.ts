/** GET /api/v1/entities and /api/v1/entities/{type}/{key}. */
import { Elysia, t } from 'elysia'
import { invalidParameter, notFound, quoted } from '../../../http/errors'
import { cachedJson } from '../response-cache'
import type { V1Context } from '../context'
import { pager } from '../../../http/pager'
import { Pagination, errorResponses, documented } from '../model'
import {
  numberParam,
  openApiParameters,
  pagingParams,
  parseParams,
  pathParam,
  stringParam,
  type Param,
} from '../params'
import { fieldsParam, selectFields } from '../fields'
import { ENTITY_TYPES, Entity, EntityDetail } from './model'
import { serializeEntity, serializeEntityPaper } from '../../../resources/entities/serialize'
import { getEntityDetailPage, listEntities } from '../../../resources/entities/queries'
import { orRedirect } from '../../../http/redirect'
import { entityApiUrl } from '../../../public-urls'
import { redirectOrNotFound } from './resolve'
import { listAnswer } from '../csv/answer'
import { formatParam } from '../csv/format-param'

const typeParam: Param<string> = {
  description: 'Entity type.',
  schema: { type: 'string', enum: ENTITY_TYPES },
  parse: (raw, name) => {
    if ((ENTITY_TYPES as readonly string[]).includes(raw)) return raw
    throw invalidParameter(`${name} has unknown value ${quoted(raw)}; allowed: ${ENTITY_TYPES.join(', ')}`)
  },
}

const listParams = {
  type: typeParam,
  q: stringParam(
    'Case-insensitive substring of the name or key (% and _ match themselves), or of any alias the entity answers ' +
      'to, compared without case, spaces and punctuation: p16 finds CDKN2A, sirolimus finds rapamycin, mice finds ' +
      'the mouse.',
    200,
  ),
  ...pagingParams,
  fields: fieldsParam(Entity, 'entity'),
  format: formatParam,
}

const detailParams = {
  min_relevance: numberParam(
    'Lowest judgement.relevance of the listed papers (0 to 3). Default: no filter; any value above 0 leaves unjudged ' +
      'papers out.',
    0,
    3,
  ),
  ...pagingParams,
  fields: fieldsParam(EntityDetail, 'entity'),
}

export const entitiesModule = (v1: V1Context) => {
  const { db, baseUrl, secret, cache } = v1
  return new Elysia({ name: 'v1-entities' })
    .get(
      '/api/v1/entities',
      ({ request, set }) =>
        listAnswer(v1, 'entities', request, set, async () => {
          const p = parseParams(request.url, listParams)
          const filters = { type: p.type, q: p.q }
          const paging = pager(secret, 'entities', filters, p)
          const { after } = paging
          const rows = await listEntities(
            db,
            filters,
            paging.limit,
            after && { paperCount: Number(after[0]), type: String(after[1]), key: String(after[2]) },
          )
          const { items, pagination } = paging.page(rows, (e) => [e.paperCount, e.type, e.key])
          return selectFields({ data: items.map((e) => serializeEntity(e, baseUrl)), pagination }, p.fields)
        }),
      {
        response: { 200: documented(t.Object({ data: t.Array(Entity), pagination: Pagination })), ...errorResponses },
        detail: {
          summary: 'List entities',
          description:
            'Entities that at least one paper involves, most-studied first: paper_count descending, then type, then ' +
            'key ascending. paper_count, and so the order, is refreshed every minute.',
          parameters: openApiParameters(listParams),
        },
      },
    )
    .get(
      '/api/v1/entities/:type/:key',
      ({ params, request, set }) =>
        orRedirect(() =>
          cachedJson(cache, request, set, async () => {
            const p = parseParams(request.url, detailParams)
            // Elysia has already decoded the path once; a part that is not valid percent-encoding arrives as null.
            const raw = params as { type: string | null; key: string | null }
            const type = pathParam(raw.type, 'type')
            const key = pathParam(raw.key, 'key')
            // No entity is named with NUL, and PostgreSQL text could not even be compared with it.
            if (type.includes('\0') || key.includes('\0'))
              throw notFound('no such entity: the path holds a NUL character (%00)')
            const paging = pager(secret, 'entity-papers', { type, key, minRelevance: p.min_relevance }, p)
            const { after } = paging
            const page = await getEntityDetailPage(
              db,
              type,
              key,
              p.min_relevance,
              paging.limit,
              after && { indexedDate: String(after[0]), paperId: String(after[1]) },
            )
            if (!page)
              return redirectOrNotFound(db, type, key, new URL(request.url).search, (canonical) =>
                entityApiUrl(baseUrl, type, canonical),
              )
            const { items, pagination } = paging.page(page.papers, (r) => [r.indexedDate, r.paperId])
            return selectFields(
              {
                data: {
                  ...serializeEntity(page.entity, baseUrl),
                  claim_count: page.claimCount,
                  papers: items.map(({ paper, roles }) => serializeEntityPaper(paper, roles, baseUrl)),
                },
                pagination,
              },
              p.fields,
            )
          }),
        ),
      {
        response: { 200: documented(t.Object({ data: EntityDetail, pagination: Pagination })), ...errorResponses },
        detail: {
          summary: 'Get one entity with its papers',
          description:
            'One entity, its claim count and its papers newest first (indexed_date descending, then id ascending), ' +
            'each with the roles the entity plays in it. pagination pages the papers. The entity may also be asked ' +
            'for by any of its names or aliases, or its key in another case (/entities/gene/p16, ' +
            '/entities/intervention/sirolimus): ' +
            'when that names exactly one entity of the type, the answer is a permanent redirect (308) to the ' +
            "entity's own URL, query string kept. " +
            'Unknown entity: 404; a name several entities of the type share: 404 naming them.',
          parameters: openApiParameters(detailParams, {
            type: 'Entity type, e.g. intervention.',
            key: 'Entity key, URL-encoded, e.g. CHEBI%3A9168.',
          }),
        },
      },
    )
}
