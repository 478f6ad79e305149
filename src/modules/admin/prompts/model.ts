/** Bodies and answers of /api/prompts (operators). */
import { t } from 'elysia'
import { stringField } from '../../../http/json-body'
import { DateTime, Enum, Integer, Nullable } from '../schemas'

export const MAX_PROMPT_LENGTH = 20_000

export const promptBody = {
  text: stringField(`The new system prompt: not blank, at most ${MAX_PROMPT_LENGTH.toLocaleString('en')} characters.`, {
    max: MAX_PROMPT_LENGTH,
  }),
}

const promptFields = {
  id: t.String({ description: 'The task it instructs: judge, story, support, entities, claims, article, ...' }),
  name: t.String(),
  description: t.String(),
  version: Integer({ minimum: 1 }),
  text: t.String(),
  updated_at: DateTime,
}

export const PromptItem = t.Object(promptFields)
export const PromptVersion = t.Object({
  version: Integer({ minimum: 1 }),
  text: t.String(),
  created_at: DateTime,
  created_by: Nullable(
    t.Object({ id: Integer({ minimum: 1 }), username: t.String() }, { description: 'Null for the default version.' }),
  ),
})

/** Whether the prompts are read at all: only a model (LLM_*) reads them; the built-in analyzer has its own rules. */
export const PromptsMeta = t.Object({
  model: t.Object({
    configured: t.Boolean({
      description:
        'False when no model is configured (LLM_BASE_URL unset): the built-in analyzer does all the work and reads ' +
        'none of these prompts.',
    }),
    name: Nullable(t.String({ description: 'The model (LLM_MODEL), or null.' })),
    route: Enum(['all', 'uncertain', 'none'] as const, {
      description:
        'all: the model judges every paper; uncertain: only those the built-in analyzer is unsure of (LLM_ROUTE); ' +
        'none: no model.',
    }),
  }),
})

export const PromptList = t.Object({ data: t.Array(PromptItem), meta: PromptsMeta })
export const PromptDetail = t.Object({
  data: t.Object({ ...promptFields, versions: t.Array(PromptVersion, { description: 'Newest first.' }) }),
  meta: PromptsMeta,
})
export const PromptUpdated = t.Object({
  data: t.Object({
    ...promptFields,
    changed: t.Boolean({ description: 'False when the text was already the current version.' }),
  }),
})
