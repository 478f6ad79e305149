/**
 * Batch lookup: POST /api/v1/papers/batch (up to 500 ids in a JSON body; GET /api/v1/papers?ids=
 * takes up to 100 through `idsParam`, in the papers module), and GET /api/v1/papers/doi:{doi}
 * for DOIs, whose slashes the one-segment /papers/{id} route cannot take.
 */
import { Elysia, type Static } from 'elysia'
import { invalidParameter, quoted } from '../../../http/errors'
import { openApiBody, parseBody } from '../../../http/json-body'
import { decodeComponent } from '../../../http/percent-decoding'
import type { V1Context } from '../context'
import { PaperDetail, documented, errorResponses } from '../model'
import { cachedJson } from '../response-cache'
import type { BatchCharge } from './allowance'
import { BatchAnswer, COST, MAX_POST_IDS, MAX_QUERY_IDS, batchAnswer, idsField } from './answer'
import { paperDetailAnswer, paperDetailJson, PaperDetailAnswer } from '../papers'
import { openApiParameters, parseParams } from '../../../http/params'
import { fieldsParam, selectFields } from '../fields'

const doiParams = { fields: fieldsParam(PaperDetail, 'paper') }

const batchBody = { ids: idsField }

export const batchModule = (v1: V1Context, charge: BatchCharge) =>
  new Elysia({ name: 'v1-batch' })
    .post(
      '/api/v1/papers/batch',
      async ({ request, body, set }) => {
        parseParams(request.url, {})
        const { ids } = parseBody(request, body, batchBody)
        return batchAnswer(v1, charge, request, set, ids, 'ids')
      },
      {
        response: { 200: documented(BatchAnswer), ...errorResponses },
        detail: {
          summary: 'Get many papers at once',
          description:
            `Up to ${MAX_POST_IDS} papers by id, DOI or PMID in one call, in the order asked, with null and a ` +
            `not_found entry for ids that match no paper. ` +
            `A malformed id is a 400 naming its position (ids[3]). ${COST} GET /api/v1/papers?ids= does the same for ` +
            `up to ${MAX_QUERY_IDS} ids.`,
          requestBody: openApiBody(batchBody) as never,
          parameters: openApiParameters({}),
        },
      },
    )
    // /papers/doi:10.1000/abc: the DOI's own slashes make it more than one path segment.
    .get(
      '/api/v1/papers/doi:*',
      ({ request, set }) =>
        cachedJson(v1.cache, request, set, async () => {
          const p = parseParams(request.url, doiParams)
          const raw = pathAfter(request.url, '/api/v1/papers/')
          if (!p.fields) return paperDetailJson(v1, raw) as unknown as Static<typeof PaperDetailAnswer>
          return selectFields(await paperDetailAnswer(v1, raw), p.fields)
        }),
      {
        response: { 200: documented(PaperDetailAnswer), ...errorResponses },
        detail: {
          summary: 'Get one paper by DOI',
          description:
            'As GET /api/v1/papers/{id}, for a DOI: /api/v1/papers/doi:10.1038/s43587-024-00001-x (slashes as they ' +
            'are or as %2F; case-insensitive). GET /api/v1/papers/pmid:39172536 finds a paper by its PubMed id the ' +
            'same way.',
          parameters: openApiParameters(doiParams, { doi: 'The DOI after doi:, e.g. 10.1038/s43587-024-00001-x.' }),
        },
      },
    )

/** The rest of the path after `prefix`, strictly percent-decoded (a 400 when it is not UTF-8). */
function pathAfter(url: string, prefix: string): string {
  const start = url.indexOf(prefix, url.indexOf('//') + 2) + prefix.length
  const query = url.indexOf('?', start)
  const raw = url.slice(start, query === -1 ? undefined : query)
  const decoded = decodeComponent(raw.replaceAll('+', '%2B'))
  if (decoded === null)
    throw invalidParameter(`the DOI in the path is not valid percent-encoded UTF-8 (got ${quoted(raw)})`)
  return decoded
}
