/** GET /api/prompts, GET /api/prompts/{id}, PUT /api/prompts/{id} (operators). */
import { Elysia } from 'elysia'
import { openApiBody, parseBody } from '../../../http/json-body'
import type { AdminContext } from '../context'
import { pathText } from '../path-id'
import { documented, errors } from '../schemas'
import { PromptDetail, PromptList, PromptUpdated, promptBody } from './model'
import { allPrompts, editPrompt, promptWithHistory } from './service'

const idParameter = [
  {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The prompt id, e.g. judge.',
    schema: { type: 'string', maxLength: 100 },
  },
] as never[]

const promptId = (raw: string | null) => pathText(raw, 'id', 100)

const MODEL_NOTE =
  ' `meta.model` says whether a model is configured (LLM_*): without one the built-in analyzer does the work and ' +
  'reads none of the prompts.'

export const promptsModule = ({ db, caller, now, llm }: AdminContext) => {
  const meta = {
    model: {
      configured: llm !== null,
      name: llm?.model ?? null,
      route: (llm ? (llm.route?.mode ?? 'all') : 'none') as 'all' | 'uncertain' | 'none',
    },
  }
  return new Elysia({ name: 'admin-prompts' })
    .get('/api/prompts', async () => ({ data: await allPrompts(db), meta }), {
      response: { 200: documented(PromptList), ...errors() },
      detail: {
        summary: 'List system prompts',
        description: "Every task's system prompt at its current version, in id order." + MODEL_NOTE,
      },
    })
    .get('/api/prompts/:id', async ({ params }) => ({ data: await promptWithHistory(db, promptId(params.id)), meta }), {
      response: { 200: documented(PromptDetail), ...errors(404) },
      detail: {
        summary: 'Read a system prompt',
        description: 'The current version and every earlier one, newest first.' + MODEL_NOTE,
        parameters: idParameter,
      },
    })
    .put(
      '/api/prompts/:id',
      async ({ request, params, body }) => {
        const id = promptId(params.id)
        const { text } = parseBody(request, body, promptBody)
        return { data: await editPrompt(db, id, text, caller(request).account.id, now()) }
      },
      {
        response: { 200: documented(PromptUpdated), ...errors(400, 404) },
        detail: {
          summary: 'Update a system prompt',
          description:
            "Makes the text the prompt's next version (earlier versions are kept); the next model call uses it, and " +
            'results record the version that produced them. Sending the current text again changes nothing ' +
            '(`changed: false`).',
          parameters: idParameter,
          requestBody: openApiBody(promptBody) as never,
        },
      },
    )
}
