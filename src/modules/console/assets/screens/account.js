// One account (operators): its membership, its access (account-access.js), its keys (GET /api/accounts/{id}/keys),
// a new pro key for it (POST /api/accounts/{id}/keys) and revocation (DELETE /api/keys/{id}).
import { get, post } from '../api.js'
import { announce, append, begin, field, formatTime, h, replace } from '../dom.js'
import { input, onSubmit, select, submit } from '../forms.js'
import { TIERS } from '../vocabulary.js'
import { accessCard } from './account-access.js'
import { membershipControl } from './accounts.js'
import { keyTable, newKeyNotice } from './key-list.js'

export async function render(main, { match, user }) {
  const id = match[1]
  const { data: account } = await get(`/api/accounts/${id}`)
  begin(main, `Account ${account.username}`, `${account.role === 'admin' ? 'Operator' : 'Member'} since ${formatTime(account.created_at)}.`)
  const fresh = h('div', {})
  const list = h('div', {})
  const form = h('form', { class: 'card', 'aria-labelledby': 'account-new-key' },
    h('h2', { id: 'account-new-key' }, 'Create a key for this account'),
    field('Tier', select('tier', TIERS.map((t) => [t, t]), 'pro')),
    field('Label', input({ name: 'label', maxlength: '100' }), 'Optional.'), submit('Create key'))
  append(main, h('p', {}, h('a', { href: '/console/accounts' }, 'All accounts')),
    h('div', { class: 'card' }, h('h2', {}, 'Membership'), membershipControl(account)), accessCard(account, user),
    fresh, list, form)
  const refresh = async () => replace(list, keyTable(`Keys of ${account.username}`, (await get(`/api/accounts/${id}/keys`)).data, refresh))
  onSubmit(form, async (data) => {
    const label = String(data.get('label') ?? '').trim()
    const answer = await post(`/api/accounts/${id}/keys`, { tier: data.get('tier'), ...(label ? { label } : {}) })
    replace(fresh, newKeyNotice(answer.data))
    announce(`Key grk_${answer.data.id} created for ${account.username}. Copy it now: it is shown only once.`)
    form.reset()
    await refresh()
  })
  await refresh()
}
