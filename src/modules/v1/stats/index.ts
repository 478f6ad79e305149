/** GET /api/v1/stats: corpus statistics, from the snapshot shared with /topics (recomputed at most once a minute). */
import { Elysia, t } from 'elysia'
import type { V1Context } from '../context'
import { errorResponses, documented } from '../model'
import { openApiParameters, parseParams } from '../params'
import { Stats } from './model'
import type { CorpusSnapshot } from './snapshot'

export const statsModule = ({ reachable }: V1Context, snapshot: CorpusSnapshot) =>
  new Elysia({ name: 'v1-stats' }).get(
    '/api/v1/stats',
    async ({ request }) => {
      parseParams(request.url, {})
      const [, { stats }] = await Promise.all([reachable(), snapshot.get()])
      return { data: stats }
    },
    {
      response: { 200: documented(t.Object({ data: Stats })), ...errorResponses },
      detail: {
        summary: 'Corpus statistics',
        description:
          'Counts over the whole corpus: papers by relevance band, stories, extracted knowledge, aging papers by ' +
          'study type and by topic, the last 30 UTC days (newest first, today included, days without papers as ' +
          'zeros) and the indexed_date range. Aging: relevance 2 or more; core: 2.5 or more; tangential: 1 to ' +
          'under 2. The numbers are computed at most once a minute; generated_at says when.',
        parameters: openApiParameters({}),
      },
    },
  )
