/** GET /api/v1/stories: the operator's published stories, newest first, each with the paper it is about. */
import { Elysia, t, type Static } from 'elysia'
import { invalidParameter } from '../../../http/errors'
import { STUDY_TYPES, TOPICS } from '../../../taxonomy'
import type { V1Context } from '../context'
import type { CursorPosition } from '../../../http/cursor'
import { pager } from '../../../http/pager'
import { Pagination, errorResponses, documented } from '../model'
import { dateParam, listParam, openApiParameters, pagingParams, parseParams } from '../params'
import { fieldsParam, selectFields } from '../fields'
import { StoryItem } from './model'
import { serializeStoryItem } from '../../../resources/stories/serialize'
import { listStories, type StoryPosition } from '../../../resources/stories/queries'
import { updatedSinceParam } from '../changes/feed'
import { StoriesFeedAnswer, storiesFeed } from '../changes/answers'
import { listStoriesJson } from '../../../resources/papers/paper-json'
import { jsonPage } from '../json-page'
import { documentText } from '../../../documents/papers'
import { STORED_STORY_ITEMS } from '../../../documents/paper-items'
import { listAnswer } from '../csv/answer'
import { ALSO_ON_LIST, requiring, type ListContext } from '../aliases'
import { formatParam } from '../csv/format-param'

const listParams = {
  since: dateParam('Only stories published on or after this UTC date.'),
  until: dateParam('Only stories published on or before this UTC date.'),
  topic: listParam("Filter on the paper's judgement.topic.", TOPICS),
  study_type: listParam("Filter on the paper's judgement.study_type.", STUDY_TYPES),
  ...pagingParams,
  fields: fieldsParam(StoryItem, 'story'),
  updated_since: updatedSinceParam,
  format: formatParam,
}

const { updated_since: _updatedSince, ...documentedListParams } = listParams
const { fields: _fields, format: _format, ...feedFilters } = documentedListParams
const feedParams = { ...feedFilters, updated_since: { ...updatedSinceParam, required: true } }

/** A signed cursor can only hold what we put in it, but a shape check costs nothing. */
function positionOf(k: CursorPosition): StoryPosition {
  const [publishedAt, paperId] = k
  if (typeof publishedAt !== 'string' || typeof paperId !== 'string' || k.length !== 2) {
    throw invalidParameter('cursor is not a cursor this API issued')
  }
  return { publishedAt, paperId }
}

export const storiesModule = (v1: V1Context) => {
  const { db, baseUrl, secret, cache } = v1
  // The list, and with updated_since its change feed; GET /stories/changes answers the feed as an operation of its own
  // (../aliases.ts).
  const list = ({ request, set }: ListContext) =>
    listAnswer(v1, 'stories', request, set, async () => {
      const p = parseParams(request.url, listParams)
      const filters = { since: p.since, until: p.until, topic: p.topic, studyType: p.study_type }
      // the change feed (src/modules/v1/changes)
      if (p.updated_since) return storiesFeed(v1, p, filters, p.updated_since)
      const paging = pager(secret, 'stories', filters, p)
      const position = paging.after && positionOf(paging.after)
      // Full pages from stored items, fields= pages written by PostgreSQL, as for /papers (src/modules/v1/papers)
      const written = await listStoriesJson(
        db,
        baseUrl,
        filters,
        paging.limit,
        position,
        p.fields,
        p.fields ? undefined : STORED_STORY_ITEMS,
      )
      if (written) {
        const { items, pagination } = paging.page(written, (r) => [r.publishedAtText, r.paperId])
        return jsonPage(
          items.map((r) => (r.stored ? documentText(r.stored, baseUrl) : r.json)),
          { pagination },
        ) as unknown as { data: Static<typeof StoryItem>[]; pagination: Static<typeof Pagination> }
      }
      const rows = await listStories(db, filters, paging.limit, position)
      const { items, pagination } = paging.page(rows, (r) => [r.publishedAtText, r.story.paperId])
      return selectFields({ data: items.map((r) => serializeStoryItem(r, baseUrl)), pagination }, p.fields)
    })
  return new Elysia({ name: 'v1-stories' })
    .get('/api/v1/stories', list as never, {
      response: { 200: documented(t.Object({ data: t.Array(StoryItem), pagination: Pagination })), ...errorResponses },
      detail: {
        summary: 'List stories',
        description:
          'Published stories newest first by published_at, then paper_id ascending. since and until act on the UTC ' +
          'date of published_at; topic and study_type on the judgement of the paper the story is about. Each item ' +
          'carries the paper as `paper` (a PaperRef). ' +
          ALSO_ON_LIST(null, 'GET /api/v1/stories/changes'),
        parameters: openApiParameters(documentedListParams),
      },
    })
    .get('/api/v1/stories/changes', requiring('updated_since', [], list) as never, {
      response: { 200: documented(StoriesFeedAnswer), ...errorResponses },
      detail: {
        summary: 'Follow changes to stories',
        description:
          'The change feed of the story list: changed items (as /stories items) and tombstones, in change order, ' +
          "under the list's " +
          'filters. The same as GET /api/v1/stories?updated_since=, which answers the same bytes.',
        parameters: openApiParameters(feedParams),
      },
    })
}
