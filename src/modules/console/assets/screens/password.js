// The signed-in account's password (POST /api/auth/password): the current one and the new one. Every other session
// of the account ends; this one goes on. Members and operators alike.
import { post } from '../api.js'
import { announce, append, begin, field, h } from '../dom.js'
import { input, onSubmit, submit } from '../forms.js'

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`

export function render(main, { user }) {
  begin(main, 'Change your password',
    `For ${user.username}. Your other sessions (other browsers, other devices) end; this one goes on.`)
  const secret = (name, autocomplete, more = {}) =>
    input({ name, type: 'password', required: true, autocomplete, ...more })
  const form = h('form', { class: 'card narrow', 'aria-labelledby': 'password-heading' },
    h('h2', { id: 'password-heading' }, 'Current and new password'),
    field('Current password', secret('current_password', 'current-password')),
    field('New password', secret('new_password', 'new-password', { minlength: '10', maxlength: '1024' }),
      '10 to 1,024 characters, not the current one.'),
    field('New password again', secret('repeat', 'new-password')),
    submit('Change password'))
  append(main, form)
  onSubmit(form, async (data) => {
    if (data.get('new_password') !== data.get('repeat')) {
      throw new Error('The two new passwords differ; type the same one twice.')
    }
    const answer = await post('/api/auth/password', {
      current_password: data.get('current_password'), new_password: data.get('new_password'),
    })
    form.reset()
    announce(`Password changed. ${plural(answer.data.sessions_ended, 'other session')} ended.`)
  })
}
