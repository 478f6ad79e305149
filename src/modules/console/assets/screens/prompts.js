// System prompts (GET /api/prompts): each task's prompt at its current version, and whether a model reads them.
import { get } from '../api.js'
import { append, begin, formatTime, h, table } from '../dom.js'

/** Says plainly whether the prompts are used: only a model reads them; the built-in analyzer has its own rules. */
export function modelNotice(model) {
  if (!model.configured) {
    return h('p', { class: 'message notice', id: 'model-notice' }, h('strong', {}, 'No model is configured, so these prompts are not used now. '),
      'The built-in analyzer judges and extracts with its own rules and does not read them. They take effect once a model is set ',
      '(LLM_BASE_URL and LLM_MODEL); editing them now prepares that.')
  }
  const route = model.route === 'uncertain'
    ? ' It judges only the papers the built-in analyzer is unsure of; the built-in analyzer, which does not read prompts, does the rest.'
    : ''
  return h('p', { class: 'message', id: 'model-notice' }, `The model ${model.name} reads these prompts.${route}`)
}

export async function render(main) {
  begin(main, 'Prompts', 'The system prompts the model works with, one per task. Editing one makes a new version; earlier ones are kept.')
  const { data, meta } = await get('/api/prompts')
  append(main, modelNotice(meta.model), table('System prompts', ['Prompt', 'Task', 'Version', 'Updated'],
    data.map((p) => [h('a', { href: `/console/prompts/${encodeURIComponent(p.id)}` }, p.name), p.description, `v${p.version}`, formatTime(p.updated_at)])))
}
