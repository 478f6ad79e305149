// One account's access, on its screen (operators): disable or enable it (POST /api/accounts/{id}/disable|enable),
// end all its sessions (DELETE /api/accounts/{id}/sessions), set a new password for it
// (POST /api/accounts/{id}/password).
import { api, post } from '../api.js'
import { announce, field, formatTime, h, replace } from '../dom.js'
import { confirmButton, input, onSubmit, submit } from '../forms.js'

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`

export const accessState = (account) =>
  account.disabled ? `disabled since ${formatTime(account.disabled_at)}` : 'enabled'

/** The access card; `self` is the signed-in operator, who cannot disable their own account. */
export function accessCard(account, self) {
  const card = h('section', { class: 'card', 'aria-labelledby': 'access-heading' })
  const draw = (current) => {
    const name = current.username
    const toggle = current.disabled
      ? confirmButton(`Enable ${name}`, `Confirm: enable ${name}`, async () => {
        const answer = await post(`/api/accounts/${current.id}/enable`, {})
        announce(`${name} is enabled: it can sign in again, and its keys work again within 2 seconds.`)
        draw(answer.data.account)
      })
      : current.id === self.id ? null : confirmButton(`Disable ${name}`, `Confirm: disable ${name}`, async () => {
        const answer = await post(`/api/accounts/${current.id}/disable`, {})
        const ended = plural(answer.data.sessions_ended, 'session')
        announce(`${name} is disabled: ${ended} ended; its keys are refused within 2 seconds.`)
        draw(answer.data.account)
      })
    const endAll = confirmButton(`End all sessions of ${name}`, `Confirm: end all sessions of ${name}`, async () => {
      const answer = await api('DELETE', `/api/accounts/${current.id}/sessions`)
      announce(`${plural(answer.data.sessions_ended, 'session')} of ${name} ended.`)
      if (current.id === self.id) location.assign('/console/sign-in')
    })
    const reset = h('form', { 'aria-labelledby': 'reset-heading' },
      h('h3', { id: 'reset-heading' }, 'Set a new password'),
      field('New password for the account', input({
        name: 'new_password', type: 'password', required: true, minlength: '10', maxlength: '1024',
        autocomplete: 'new-password',
      }), 'Every session of the account ends. 10 to 1,024 characters.'),
      submit('Set password'))
    onSubmit(reset, async (data) => {
      const answer = await post(`/api/accounts/${current.id}/password`, { new_password: data.get('new_password') })
      reset.reset()
      announce(`New password set for ${name}; ${plural(answer.data.sessions_ended, 'session')} ended.`)
      if (current.id === self.id) location.assign('/console/sign-in')
    })
    replace(card, h('h2', { id: 'access-heading' }, 'Access'),
      h('p', { id: 'access-state' }, `Sign-in and API keys: ${accessState(current)}.`),
      h('div', { class: 'actions' }, toggle, endAll), reset)
  }
  draw(account)
  return card
}
