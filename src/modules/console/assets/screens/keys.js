// The signed-in account's own API keys (GET/POST /api/keys, DELETE /api/keys/{id}): members and
// operators alike see only their own here.
import { get, post } from '../api.js'
import { announce, append, begin, field, h, replace } from '../dom.js'
import { input, onSubmit, submit } from '../forms.js'
import { keyTable, newKeyNotice } from './key-list.js'

export async function render(main, { user }) {
  begin(main, 'My API keys', `Keys for the Data API (/api/v1) that belong to ${user.username}.`)
  if (user.role === 'member' && user.membership !== 'active') {
    append(main, h('p', { class: 'message error' }, 'Your membership has lapsed: member keys are refused until it is active again.'))
  }
  const fresh = h('div', {})
  const list = h('div', {})
  const form = h('form', { class: 'card', 'aria-labelledby': 'new-key-heading' },
    h('h2', { id: 'new-key-heading' }, 'Create a key'),
    field('Label', input({ name: 'label', maxlength: '100' }), 'Optional: where the key is used, to tell keys apart.'), submit('Create key'))
  append(main, fresh, list, form)
  const refresh = async () => replace(list, keyTable('Your keys, oldest first', (await get('/api/keys')).data, refresh))
  onSubmit(form, async (data) => {
    const label = String(data.get('label') ?? '').trim()
    const answer = await post('/api/keys', label ? { label } : {})
    replace(fresh, newKeyNotice(answer.data))
    announce(`Key grk_${answer.data.id} created. Copy it now: it is shown only once.`)
    form.reset()
    await refresh()
  })
  await refresh()
}
