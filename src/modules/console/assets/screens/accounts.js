// Accounts (operators): list (GET /api/accounts), create (POST /api/accounts) and set membership
// (PATCH /api/accounts/{id}); each account's keys, and its access, on its own screen.
import { api, get, post, query } from '../api.js'
import { announce, append, begin, field, formatTime, h, nextPageLink, replace, table } from '../dom.js'
import { actionButton, input, onSubmit, select, submit } from '../forms.js'
import { MEMBERSHIPS, ROLES } from '../vocabulary.js'
import { accessState } from './account-access.js'

const roleName = (role) => role === 'admin' ? 'operator' : role

export function membershipControl(account, after) {
  const id = `membership-${account.id}`
  const choice = h('select', { id, name: 'membership' }, MEMBERSHIPS.map((m) => h('option', { value: m, selected: m === account.membership }, m)))
  return h('div', { class: 'inline' }, h('label', { for: id, class: 'visually-hidden' }, `Membership of ${account.username}`), choice,
    actionButton('Set', async () => {
      const answer = await api('PATCH', `/api/accounts/${account.id}`, { membership: choice.value })
      announce(`${answer.data.username}: membership ${answer.data.membership}.`)
      await after?.(answer.data)
    }, { 'aria-label': `Set the membership of ${account.username}` }))
}

export async function render(main, { params }) {
  begin(main, 'Accounts', 'Operators and members. A lapsed membership makes the Data API refuse that member\'s keys.')
  const list = h('div', {})
  const form = h('form', { class: 'card', 'aria-labelledby': 'new-account' },
    h('h2', { id: 'new-account' }, 'Create an account'),
    field('Username', input({ name: 'username', required: true, minlength: '3', maxlength: '64', autocomplete: 'off' }), '3 to 64 letters, digits, ".", "_" or "-".'),
    field('Password', input({ name: 'password', type: 'password', required: true, autocomplete: 'new-password' })),
    field('Role', select('role', ROLES.map((r) => [r, roleName(r)]), 'member')),
    field('Membership', select('membership', MEMBERSHIPS.map((m) => [m, m]), 'active')),
    submit('Create account'))
  append(main, list, form)
  const refresh = async () => {
    const page = await get(`/api/accounts${query({ cursor: params.get('cursor'), limit: 50 })}`)
    replace(list, table('Accounts', ['Username', 'Role', 'Membership', 'Access', 'Created', 'Keys'],
      page.data.map((a) => [a.username, roleName(a.role), membershipControl(a, refresh), accessState(a),
        formatTime(a.created_at),
        h('a', { href: `/console/accounts/${a.id}`, 'aria-label': `Keys of ${a.username}` }, 'Keys')])),
    nextPageLink(page.pagination))
  }
  onSubmit(form, async (data) => {
    const answer = await post('/api/accounts', {
      username: data.get('username'), password: data.get('password'), role: data.get('role'), membership: data.get('membership'),
    })
    announce(`Account ${answer.data.username} created.`)
    form.reset()
    await refresh()
  })
  await refresh()
}
