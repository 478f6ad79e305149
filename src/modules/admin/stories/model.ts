/** Answers of /api/stories (operators): stories held back by the support check, and a rewrite's outcome. */
import { t } from 'elysia'
import { DateTime, Enum, Integer, Nullable } from '../schemas'
import { STUDY_TYPES } from '../../../taxonomy'

export const HeldStory = t.Object({
  paper_id: t.String({ description: 'The paper the story is about.' }),
  title: t.String({ description: "The paper's title." }),
  study_type: Nullable(Enum(STUDY_TYPES)), // the judgement the story's design and organism words must agree with
  headline: t.String(),
  dek: t.String(),
  body: t.String(),
  why_it_matters: t.String(),
  caveats: t.String(),
  support: t.Number({
    minimum: 0,
    maximum: 1,
    description: 'What held it back: 0 contradicts the abstract or the judgement, 1 overstates.',
  }),
  problems: t.Array(t.String(), { description: "The support check's reasons, in words." }),
  model: t.String({ description: 'What wrote it.' }),
  written_at: DateTime,
})

export const HeldStoryList = t.Object({
  data: t.Array(HeldStory),
  total: Integer({ minimum: 0, description: 'Stories held back in all.' }),
})

export const RewriteAnswer = t.Object({
  data: t.Object({
    paper_id: t.String(),
    status: Enum(['published', 'held', 'none'] as const), // described in the route's description
    support: Nullable(t.Number({ minimum: 0, maximum: 3 })),
    problems: t.Array(t.String()),
    reason: Nullable(t.String()),
  }),
})
