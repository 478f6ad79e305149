/** TypeBox schema of Topic (data-api-v1.md part 2). */
import { t } from 'elysia'
import { TOPICS } from '../../../taxonomy'

const Url = t.String({ format: 'uri' })

export const Topic = t.Object({
  slug: t.UnionEnum(TOPICS),
  name: t.String(),
  description: t.String(),
  papers_7d: t.Integer({ minimum: 0 }),
  papers_total: t.Integer({ minimum: 0 }),
  site_url: Url,
  feed_url: Url,
})
