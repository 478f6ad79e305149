/** GET /api/v1/claims. */
import { Elysia, t } from 'elysia'
import { invalidParameter, quoted } from '../../../http/errors'
import type { V1Context } from '../context'
import { pager } from '../../../http/pager'
import { Pagination, errorResponses, documented } from '../model'
import { openApiParameters, pagingParams, parseParams, stringParam, type Param } from '../params'
import { normalisePaperId } from '../../../resources/papers/queries'
import { fieldsParam, selectFields } from '../fields'
import { FacetFields, countedPagination, facetParams, withFacets } from '../facets/params'
import { claimFacets } from '../facets/claims'
import { ClaimItem } from './model'
import { serializeClaimItem } from '../../../resources/claims/serialize'
import { listClaims } from '../../../resources/claims/queries'
import { updatedSinceParam } from '../changes/feed'
import { ClaimsFeedAnswer, claimsFeed } from '../changes/answers'
import { listAnswer } from '../csv/answer'
import { ALSO_ON_LIST, requiring, type ListContext } from '../aliases'
import { formatParam } from '../csv/format-param'
import { listClaimItemTexts } from '../../../documents/claims'
import { jsonPage } from '../json-page'

/** Accepted case-insensitively, like /papers/{id}; a string that cannot be a paper id is a 400. */
const paperIdParam: Param<string> = {
  description: 'Only claims from this paper (paper id, case-insensitive).',
  schema: { type: 'string', pattern: '^([Mm][Ee][Dd]|[Pp][Pp][Rr])-[0-9]{1,12}$', examples: ['MED-39172536'] },
  parse: (raw, name) => {
    const id = normalisePaperId(raw)
    if (!id) throw invalidParameter(`${name} must be a paper id like MED-39172536 or PPR-841231 (got ${quoted(raw)})`)
    return id
  },
}

const listParams = {
  subject: stringParam(
    'What the claim is about. A value that names an entity exactly (its name, key or any alias, ignoring case, ' +
      'spaces and punctuation: sirolimus is rapamycin, p16 is CDKN2A, NR is nicotinamide riboside) matches the ' +
      'claims whose subject is that ' +
      "entity, and subjects resolved to no entity whose text holds the value or another of the entity's names as a " +
      'whole word ' +
      '("low-dose sirolimus"); never a longer word holding it, so sirolimus never matches temsirolimus or ' +
      'everolimus, which are asked ' +
      "for by name. Any other value is a case-insensitive substring of the subject text, or of its entity's name or " +
      'key (% and _ match themselves).',
    200,
  ),
  object: stringParam('Same for the object.', 200),
  relation: stringParam('Exact relation, e.g. increases, extends_lifespan.', 200),
  organism: stringParam(
    'Case-insensitive substring of the organism; a common name of a known organism also matches its other names ' +
      '(mice or mouse finds Mus musculus).',
    200,
  ),
  paper_id: paperIdParam,
  ...pagingParams,
  fields: fieldsParam(ClaimItem, 'claim'),
  ...facetParams('claims'),
  updated_since: updatedSinceParam,
  format: formatParam,
}

const { updated_since: _updatedSince, ...documentedListParams } = listParams
const { fields: _fields, format: _format, count: _count, group_by: _groupBy, ...feedFilters } = documentedListParams
const feedParams = { ...feedFilters, updated_since: { ...updatedSinceParam, required: true } }

export const claimsModule = (v1: V1Context) => {
  const { db, baseUrl, secret, cache } = v1
  // The list, and with updated_since its change feed; GET /claims/changes answers the feed as an operation of its own
  // (../aliases.ts).
  const list = ({ request, set }: ListContext) =>
    listAnswer(v1, 'claims', request, set, async () => {
      const p = parseParams(request.url, listParams)
      const filters = {
        subject: p.subject,
        object: p.object,
        relation: p.relation,
        organism: p.organism,
        paperId: p.paper_id,
      }
      // the change feed (src/modules/v1/changes)
      if (p.updated_since) return claimsFeed(v1, p, filters, p.updated_since)
      const paging = pager(secret, 'claims', filters, p)
      const { after } = paging
      const position = after && { createdAt: String(after[0]), id: Number(after[1]) }
      // Without fields=, the page is its claims' stored items joined (src/documents/claims.ts), the same bytes.
      if (!p.fields) {
        const [texts, facets] = await Promise.all([
          listClaimItemTexts(db, filters, paging.limit, position, baseUrl),
          claimFacets(db, filters, p),
        ])
        const { items, pagination } = paging.page(texts, (r) => [r.createdAtText, r.id])
        return jsonPage(
          items.map((r) => r.json),
          withFacets(pagination, facets),
        ) as unknown as { data: unknown[] }
      }
      const [rows, facets] = await Promise.all([
        listClaims(db, filters, paging.limit, position),
        claimFacets(db, filters, p),
      ])
      const { items, pagination } = paging.page(rows, (r) => [r.createdAtText, r.claim.id])
      return selectFields(
        { data: items.map((r) => serializeClaimItem(r, baseUrl)), ...withFacets(pagination, facets) },
        p.fields,
      )
    })
  return new Elysia({ name: 'v1-claims' })
    .get('/api/v1/claims', list as never, {
      response: {
        200: documented(
          t.Object({ data: t.Array(ClaimItem), pagination: countedPagination(Pagination), ...FacetFields }),
        ),
        ...errorResponses,
      },
      detail: {
        summary: 'List claims',
        description:
          'Claims newest first: created_at descending, then id descending. Each carries its paper in brief; evidence ' +
          "is null unless the paper's abstract licence allows reuse. " +
          ALSO_ON_LIST(null, 'GET /api/v1/claims/changes'),
        parameters: openApiParameters(documentedListParams),
      },
    })
    .get('/api/v1/claims/changes', requiring('updated_since', [], list) as never, {
      response: { 200: documented(ClaimsFeedAnswer), ...errorResponses },
      detail: {
        summary: 'Follow changes to claims',
        description:
          'The change feed of the claim list: changed items (as /claims items) and tombstones, in change order, ' +
          "under the list's " +
          'filters. The same as GET /api/v1/claims?updated_since=, which answers the same bytes.',
        parameters: openApiParameters(feedParams),
      },
    })
}
