/** TypeBox schema of Topic. */
import { t } from 'elysia'
import { TOPICS } from '../../../taxonomy'
import { Enum, Integer } from '../model'

const Url = t.String({ format: 'uri' })

export const Topic = t.Object({
  slug: Enum(TOPICS),
  name: t.String(),
  description: t.String(),
  papers_7d: Integer({ minimum: 0 }),
  papers_total: Integer({ minimum: 0 }),
  site_url: Url,
  feed_url: Url,
})
