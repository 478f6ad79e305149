/** GET /api/v1/topics: every topic with its counts, from the snapshot shared with /stats. */
import { Elysia, t } from 'elysia'
import type { V1Context } from '../context'
import { errorResponses, documented } from '../model'
import { openApiParameters, parseParams } from '../params'
import type { CorpusSnapshot } from '../stats/snapshot'
import { Topic } from './model'
import { listTopics } from './service'
import { fieldsParam, selectFields } from '../fields'

const topicParams = { fields: fieldsParam(Topic, 'topic') }

export const topicsModule = ({ baseUrl, reachable }: V1Context, snapshot: CorpusSnapshot) =>
  new Elysia({ name: 'v1-topics' }).get(
    '/api/v1/topics',
    async ({ request }) => {
      const p = parseParams(request.url, topicParams)
      const [, { topics }] = await Promise.all([reachable(), snapshot.get()])
      return selectFields({ data: listTopics(topics, baseUrl) }, p.fields)
    },
    {
      response: { 200: documented(t.Object({ data: t.Array(Topic) })), ...errorResponses },
      detail: {
        summary: 'List topics',
        description:
          'All topics, in a fixed order, with counts of papers about aging biology (relevance 2 or more) filed under ' +
          'each: papers_7d over the last 7 UTC days (today and the 6 days before, by indexed_date), papers_total ' +
          'over the whole corpus. Counts are recomputed at most once a minute.',
        parameters: openApiParameters(topicParams),
      },
    },
  )
