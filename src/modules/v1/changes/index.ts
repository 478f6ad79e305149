/**
 * GET /api/v1/changes: what changed across papers, stories and claims, in one order, as light
 * entries ({ type, id, deleted, changed_at }), for a client that fetches the items itself or only
 * needs to know. updated_since on /papers, /stories and /claims (answers.ts) serves the items.
 */
import { Elysia, t } from 'elysia'
import type { V1Context } from '../context'
import { errorResponses, documented } from '../model'
import { listParam, openApiParameters, pagingParams, parseParams } from '../params'
import { cachedJson } from '../response-cache'
import { FEED_RESOURCES, readChanges, type FeedResource } from '../../../resources/changes/queries'
import { ChangeEntry, FeedPagination } from './model'
import { FEED_DOC, feedPaging, updatedSinceParam } from './feed'

const EPOCH = '0001-01-01T00:00:00Z'

const changesParams = {
  updated_since: {
    ...updatedSinceParam,
    description:
      'Only changes at or after this time (an ISO 8601 timestamp with Z or an offset, or ' +
      'YYYY-MM-DD for 00:00 UTC). Omitted: every item in the feed, from the start.',
  },
  type: listParam('Only these kinds of item: paper, story, claim.', FEED_RESOURCES),
  ...pagingParams,
}

export const ChangesAnswer = t.Object({ data: t.Array(ChangeEntry), pagination: FeedPagination })

export const changesModule = ({ db: reader, primary, secret, cache }: V1Context) => {
  const db = primary ?? reader // see V1Context.primary
  return new Elysia({ name: 'v1-changes' }).get(
    '/api/v1/changes',
    ({ request, set }) =>
      cachedJson(cache, request, set, async () => {
        const p = parseParams(request.url, changesParams)
        const types = (p.type ?? [...FEED_RESOURCES]) as FeedResource[]
        const updatedSince = p.updated_since ?? EPOCH
        const paging = await feedPaging(db, secret, 'changes', types, { updatedSince, type: types }, p)
        const { items, pagination } = paging.page(await readChanges(db, types, paging.window))
        return {
          data: items.map((row) => ({
            type: row.resource,
            id: row.resource === 'claim' ? Number(row.itemId) : row.itemId,
            deleted: !row.exists,
            changed_at: row.changedAt,
          })),
          pagination,
        }
      }),
    {
      response: { 200: documented(ChangesAnswer), ...errorResponses },
      detail: {
        summary: 'List changes',
        description:
          'Every change to papers, stories and claims, as one entry per changed item at its latest change. Each ' +
          'paper, story and claim that exists is in the feed, so updated_since omitted lists them all. A change to a ' +
          'paper also counts for its story and (when its title, DOI, journal, dates, URL or licence change) its ' +
          'claims, and a story change for its paper, because ' +
          `the list items carry each other. ${FEED_DOC}`,
        parameters: openApiParameters(changesParams),
      },
    },
  )
}
