// One system prompt: edit its text (PUT /api/prompts/{id}) and read its version history
// (GET /api/prompts/{id}, newest first).
import { api, get } from '../api.js'
import { announce, append, begin, field, formatTime, h, replace } from '../dom.js'
import { onSubmit, submit } from '../forms.js'
import { modelNotice } from './prompts.js'

export async function render(main, { match }) {
  const id = match[1]
  const history = h('section', { 'aria-labelledby': 'prompt-history' })
  const text = h('textarea', { name: 'text', rows: '14', required: true, maxlength: '20000', spellcheck: 'false' })
  const form = h('form', { class: 'card', 'aria-labelledby': 'prompt-edit' }, h('h2', { id: 'prompt-edit' }, 'Edit'),
    field('Prompt text', text, 'At most 20,000 characters. Saving makes it the next version; the next model call uses it.'), submit('Save new version'))
  // Each version carries its own number (a list's numbering would count 1, 2, 3 from the newest, not the versions).
  const draw = ({ data: prompt, meta }) => {
    begin(main, `Prompt: ${prompt.name}`, prompt.description)
    text.value = prompt.text
    replace(history, h('h2', { id: 'prompt-history' }, 'Version history'), h('p', { class: 'meta' }, 'Newest first.'),
      h('ul', { class: 'versions' }, prompt.versions.map((v) => h('li', { 'data-version': String(v.version) },
        h('details', {}, h('summary', {}, h('strong', {}, `Version ${v.version}`),
          ` · ${formatTime(v.created_at)} · ${v.created_by ? `by ${v.created_by.username}` : 'the default text'}${v.version === prompt.version ? ' (current)' : ''}`),
          h('pre', {}, v.text))))))
    append(main, h('p', {}, h('a', { href: '/console/prompts' }, 'All prompts')), modelNotice(meta.model),
      h('p', { class: 'meta' }, `Current version ${prompt.version}, updated ${formatTime(prompt.updated_at)}.`), form, history)
  }
  onSubmit(form, async (data) => {
    const answer = await api('PUT', `/api/prompts/${encodeURIComponent(id)}`, { text: data.get('text') })
    draw(await get(`/api/prompts/${encodeURIComponent(id)}`))
    announce(answer.data.changed ? `Saved as version ${answer.data.version}.` : 'No change: that is already the current text.')
  })
  draw(await get(`/api/prompts/${encodeURIComponent(id)}`))
}
