// System prompts (GET /api/prompts): each task's prompt at its current version.
import { get } from '../api.js'
import { append, begin, formatTime, h, table } from '../dom.js'

export async function render(main) {
  begin(main, 'Prompts', 'The system prompts the model works with, one per task. Editing one makes a new version; earlier ones are kept.')
  const { data } = await get('/api/prompts')
  append(main, table('System prompts', ['Prompt', 'Task', 'Version', 'Updated'],
    data.map((p) => [h('a', { href: `/console/prompts/${encodeURIComponent(p.id)}` }, p.name), p.description, String(p.version), formatTime(p.updated_at)])))
}
