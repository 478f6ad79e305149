/** GET /api/v1/papers and /api/v1/papers/{id}. */
import { Elysia, t, type Static } from 'elysia'
import { invalidParameter, notFound, quoted } from '../../../http/errors'
import { STUDY_TYPES, TOPICS } from '../../../taxonomy'
import { pager } from '../../../http/pager'
import { Pagination, Paper, PaperDetail, errorResponses, documented } from '../model'
import {
  booleanParam,
  dateParam,
  listParam,
  numberParam,
  openApiParameters,
  pagingParams,
  parseParams,
  pathParam,
  stringParam,
} from '../params'
import { cachedJson, JsonText } from '../response-cache'
import type { V1Context } from '../context'
import { assertSearchable } from '../../../search/syntax'
import { queryFilter } from '../../../search/synonyms'
import { getPaperDetail, listPapers, type PaperFilters } from '../../../resources/papers/queries'
import { listPapersJson, type PaperJsonRow } from '../../../resources/papers/paper-json'
import { DEFAULT_PAPER_SORT, PAPER_ORDERS, readPosition } from '../../../resources/papers/paper-order'
import { sortParam } from './sort-param'
import { jsonPage } from '../json-page'
import { serializeListedPaper } from '../../../resources/papers/serialize'
import { serializePaperDetail } from '../../../resources/papers/detail'
import { documentText, readPaperDocument } from '../../../documents/papers'
import { STORED_PAPER_ITEMS } from '../../../documents/paper-items'
import { fieldsParam, selectFields } from '../fields'
import { FacetFields, countedPagination, facetParams, withFacets } from '../facets/params'
import { paperFacets } from '../facets/papers'
import { BatchAnswer, MAX_QUERY_IDS, batchAnswer, idsParam } from '../batch/answer'
import { ALSO_ON_LIST, requiring, type ListContext } from '../aliases'
import type { BatchCharge } from '../batch/allowance'
import { isPrefixedIdentifier, readPaperIdentifier } from '../batch/identifiers'
import { resolvePaperIdentifier } from '../batch/service'
import { updatedSinceParam } from '../changes/feed'
import { PapersFeedAnswer, papersFeed } from '../changes/answers'
import { listAnswer } from '../csv/answer'
import { formatParam } from '../csv/format-param'

export const paperFilterParams = {
  since: dateParam('Only papers with indexed_date on or after this UTC date.'),
  until: dateParam('Only papers with indexed_date on or before this UTC date.'),
  published_since: dateParam('Only papers with published_date on or after this UTC date (none without one).'),
  published_until: dateParam('Only papers with published_date on or before this UTC date (none without one).'),
  min_relevance: numberParam(
    'Lowest judgement.relevance (0 to 3). 0 returns every paper read, unjudged ones included.',
    0,
    3,
    2,
  ),
  study_type: listParam('Filter on judgement.study_type.', STUDY_TYPES),
  topic: listParam('Filter on judgement.topic.', TOPICS),
  preprint: booleanParam('true: preprints only; false: peer-reviewed only; omitted: both.'),
}

/** What the words of q match, for the /papers q filter and /search alike. */
export const Q_MATCHES =
  'Words match in titles and abstracts only (not keywords or MeSH headings), so a hit shows why it matched. ' +
  'Irregular plurals (mouse and mice, nucleus and nuclei), British and American spellings (ageing and aging, tumour ' +
  'and tumor, haem and heme, randomised and randomized) and stemmed forms (senolytic and senolytics) match each ' +
  'other; NAD+ matches NAD, not NADH. A gene or intervention named in q also matches its other names (p16 finds ' +
  'CDKN2A and p16INK4a, sirolimus finds rapamycin); a quoted name, or an -excluded one, stays as written.'

const listParams = {
  ...paperFilterParams,
  q: stringParam(
    'Full-text filter over title and abstract: quoted phrases, OR and -exclusions. Order stays by sort. ' + Q_MATCHES,
    500,
  ),
  sort: sortParam,
  ...pagingParams,
  ids: idsParam,
  fields: fieldsParam(Paper, 'paper'),
  ...facetParams('papers'),
  updated_since: updatedSinceParam,
  format: formatParam,
}

const { ids: _ids, updated_since: _updatedSince, ...documentedListParams } = listParams
const batchParams = { ids: { ...idsParam, required: true }, fields: listParams.fields }
const feedParams = { ...paperFilterParams, ...pagingParams, updated_since: { ...updatedSinceParam, required: true } }

/** The plain page of papers (with count= and group_by=): the list operation's one answer. */
export const PaperPage = t.Object({ data: t.Array(Paper), pagination: countedPagination(Pagination), ...FacetFields })

const detailParams = { fields: fieldsParam(PaperDetail, 'paper') }

type FilterParams = {
  since?: string
  until?: string
  published_since?: string
  published_until?: string
  min_relevance?: number
  study_type?: string[]
  topic?: string[]
  preprint?: boolean
}

export function paperFilters(p: FilterParams): PaperFilters {
  return {
    since: p.since,
    until: p.until,
    publishedSince: p.published_since,
    publishedUntil: p.published_until,
    minRelevance: p.min_relevance ?? 2,
    studyType: p.study_type,
    topic: p.topic,
    preprint: p.preprint,
  }
}

export const PaperDetailAnswer = t.Object({ data: PaperDetail })

/** The paper id `given` names (as the caller wrote it), or a 404. */
async function paperIdOf(db: V1Context['db'], given: string): Promise<string> {
  const identifier = readPaperIdentifier(given)
  const id = identifier && (await resolvePaperIdentifier(db, identifier))
  if (!id) throw notFound(`no paper with ${isPrefixedIdentifier(given) ? '' : 'id '}${quoted(given)}`)
  return id
}

/**
 * The answer of /papers/{id}, /papers/doi:{doi} and /papers/pmid:{n}, built from the rows; `given` as the caller wrote
 * it.
 */
export async function paperDetailAnswer(v1: V1Context, given: string) {
  return liveDetail(v1, given, await paperIdOf(v1.db, given))
}

async function liveDetail({ db, baseUrl }: V1Context, given: string, id: string) {
  const detail = await getPaperDetail(db, id)
  if (!detail) throw notFound(`no paper with ${isPrefixedIdentifier(given) ? '' : 'id '}${quoted(given)}`)
  return { data: serializePaperDetail(detail, baseUrl) }
}

/**
 * The same answer as JSON text, for a request without `fields=`: the paper's stored document
 * (src/documents/papers.ts), one row read and sent as it is; built from the rows while it is stale.
 */
export async function paperDetailJson(v1: V1Context, given: string): Promise<JsonText> {
  const id = await paperIdOf(v1.db, given)
  const stored = await readPaperDocument(v1.db, id, v1.baseUrl)
  return new JsonText(stored === null ? JSON.stringify(await liveDetail(v1, given, id)) : `{"data":${stored}}`)
}

type PapersAnswer = { data: Static<typeof Paper>[]; pagination: Static<typeof Pagination> }

export const papersModule = (v1: V1Context, charge: BatchCharge) => {
  const { db, baseUrl, secret, cache } = v1
  // One handler answers the list, the batch lookup (ids=) and the change feed (updated_since), as it always
  // has on /papers; GET /papers/batch and /papers/changes answer the same bytes as their own operations, so
  // each documented operation has one answer shape (docs/contract-decisions.md, "One shape per operation").
  // Typed loosely at the routes: each route's documented answer is one of the shapes this returns.
  const list = ({ request, set }: ListContext) =>
    listAnswer(v1, 'papers', request, set, async () => {
      const p = parseParams(request.url, listParams)
      if (p.ids) {
        const others = Object.keys(p).filter((name) => name !== 'ids' && name !== 'fields')
        if (others.length > 0)
          throw invalidParameter(`ids cannot be combined with other parameters (got ${others.join(', ')})`)
        return selectFields(await batchAnswer(v1, charge, request, set, p.ids, 'ids'), p.fields)
      }
      // the change feed (src/modules/v1/changes)
      if (p.updated_since) return papersFeed(v1, p, { ...paperFilters(p), q: p.q }, p.updated_since)
      const filters = { ...paperFilters(p), q: p.q }
      const sort = p.sort ?? DEFAULT_PAPER_SORT
      const order = PAPER_ORDERS[sort]
      // The order is part of what a cursor was made with: one from another order is refused (src/http/cursor.ts).
      // The default order adds nothing, so its cursors are what they were before `sort` existed.
      const paging = pager(secret, 'papers', { ...filters, sort: sort === DEFAULT_PAPER_SORT ? undefined : sort }, p)
      const position = paging.after && readPosition(sort, paging.after)
      if (paging.after && !position) throw invalidParameter('cursor is not a cursor this API issued')
      // q matches the names /search expands by their other names too (the cursor is bound to q as written).
      const matching = { ...filters, ...queryFilter(p.q) }
      // Full pages join the items stored beside each paper (src/documents/paper-items.ts), PostgreSQL writing those
      // of papers whose item is stale; fields= pages are written by PostgreSQL, only the fields asked for
      // (src/resources/papers/paper-json.ts).
      const [written, facets] = await Promise.all([
        // null: not built in SQL
        p.fields
          ? listPapersJson(db, baseUrl, matching, paging.limit, position, p.fields, sort)
          : listPapersJson(db, baseUrl, matching, paging.limit, position, undefined, sort, STORED_PAPER_ITEMS),
        paperFacets(db, matching, p),
      ])
      if (written) {
        if (written.length === 0 && p.q) await assertSearchable(db, p.q)
        const keyOf = (r: PaperJsonRow) =>
          sort === 'indexed_date' ? r.indexedDate : order.cast === 'float8' ? Number(r.sortKey) : r.sortKey!
        const { items, pagination } = paging.page(written, (r) => [keyOf(r), r.id])
        return jsonPage(
          items.map((r) => (r.stored ? documentText(r.stored, baseUrl) : r.json)),
          withFacets(pagination, facets),
        ) as unknown as PapersAnswer
      }
      const rows = await listPapers(db, matching, paging.limit, position, sort)
      if (rows.length === 0 && p.q) await assertSearchable(db, p.q)
      const { items, pagination } = paging.page(rows, (r) => [order.keyOf(r), r.id])
      return selectFields(
        { data: items.map((r) => serializeListedPaper(r, baseUrl)), ...withFacets(pagination, facets) },
        p.fields,
      )
    })
  return new Elysia({ name: 'v1-papers' })
    .get('/api/v1/papers', list as never, {
      response: { 200: documented(PaperPage), ...errorResponses },
      detail: {
        summary: 'List papers',
        description:
          'Papers newest first by indexed_date, then id ascending (or in the order sort names, each then by id ' +
          'ascending). By default only papers about aging biology (relevance 2 or more). ' +
          ALSO_ON_LIST('GET /api/v1/papers/batch', 'GET /api/v1/papers/changes'),
        parameters: openApiParameters(documentedListParams),
      },
    })
    .get('/api/v1/papers/batch', requiring('ids', [], list) as never, {
      response: { 200: documented(BatchAnswer), ...errorResponses },
      detail: {
        summary: 'Get many papers at once (query)',
        description:
          `Up to ${MAX_QUERY_IDS} papers by id, DOI or PMID, in the order asked, with null and a not_found entry for ` +
          `ids that match ` +
          `no paper: the answer of POST /api/v1/papers/batch, for ids that fit in a URL. The same as GET ` +
          `/api/v1/papers?ids=, which answers ` +
          'the same bytes.',
        parameters: openApiParameters(batchParams),
      },
    })
    .get('/api/v1/papers/changes', requiring('updated_since', ['ids'], list) as never, {
      response: { 200: documented(PapersFeedAnswer), ...errorResponses },
      detail: {
        summary: 'Follow changes to papers',
        description:
          'The change feed of the paper list: changed papers (as /papers items) and tombstones, in change order, ' +
          "under the list's " +
          'filters. The same as GET /api/v1/papers?updated_since=, which answers the same bytes.',
        parameters: openApiParameters(feedParams),
      },
    })
    .get(
      '/api/v1/papers/:id',
      ({ params, request, set }) =>
        cachedJson(cache, request, set, async () => {
          const p = parseParams(request.url, detailParams)
          const id = pathParam(params.id, 'id')
          if (!p.fields) return paperDetailJson(v1, id) as unknown as Static<typeof PaperDetailAnswer>
          return selectFields(await paperDetailAnswer(v1, id), p.fields)
        }),
      {
        response: { 200: documented(PaperDetailAnswer), ...errorResponses },
        detail: {
          summary: 'Get one paper',
          description:
            'The full record of one paper: judgement, full story, upvotes, entities and claims. The id is accepted ' +
            'case-insensitively, and so are pmid:39172536 (the same as MED-39172536) and, through ' +
            '/api/v1/papers/doi:{doi}, a DOI.',
          parameters: openApiParameters(detailParams, {
            id: 'Paper id, e.g. MED-39172536 or PPR-841231, or pmid:39172536.',
          }),
        },
      },
    )
}
