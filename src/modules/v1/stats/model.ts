/** TypeBox schema of Stats. */
import { t, type Static } from 'elysia'
import { STUDY_TYPES, TOPICS } from '../../../taxonomy'
import { Enum, Integer } from '../model'

const Count = Integer({ minimum: 0 })
const DateString = t.String({ format: 'date' })

export const Stats = t.Object({
  papers: t.Object({
    total: Count,
    judged: Count,
    aging: Count,
    core: Count,
    tangential: Count,
    preprints: Count,
    open_abstracts: Count,
  }),
  stories: t.Object({ published: Count }),
  knowledge: t.Object({ papers_extracted: Count, entities: Count, claims: Count }),
  by_study_type: t.Array(t.Object({ study_type: Enum(STUDY_TYPES), label: t.String(), papers: Count })),
  by_topic: t.Array(t.Object({ topic: Enum(TOPICS), papers: Count })),
  daily: t.Array(t.Object({ date: DateString, papers: Count, aging: Count, preprints: Count })),
  coverage: t.Object({ first_indexed: t.Union([DateString, t.Null()]), last_indexed: t.Union([DateString, t.Null()]) }),
  generated_at: t.String({ format: 'date-time' }),
})

export type StatsData = Static<typeof Stats>
