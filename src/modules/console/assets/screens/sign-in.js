// Sign in: POST /api/auth/login with the username and password; the answer sets the session cookie.
import { api } from '../api.js'
import { append, begin, field, h } from '../dom.js'
import { input, onSubmit, submit } from '../forms.js'

/** Only paths inside the console are followed after signing in (no open redirect). */
function nextPath() {
  const next = new URLSearchParams(location.search).get('next') ?? ''
  return /^\/console(\/[A-Za-z0-9/_?=&%.,:-]*)?$/.test(next) && !next.startsWith('//') ? next : '/console'
}

export function render(main) {
  begin(main, 'Sign in', 'Operators manage sources, jobs, briefs, prompts and accounts; members manage their API keys.')
  const form = h('form', { class: 'card narrow', 'aria-label': 'Sign in' },
    field('Username', input({ name: 'username', autocomplete: 'username', required: true, maxlength: '64' })),
    field('Password', input({ name: 'password', type: 'password', autocomplete: 'current-password', required: true })),
    submit('Sign in'))
  append(main, form)
  onSubmit(form, async (data) => {
    const answer = await api('POST', '/api/auth/login', { username: data.get('username'), password: data.get('password') })
    const user = answer.data.user
    location.assign(user.role === 'admin' ? nextPath() : '/console/keys')
  })
  form.querySelector('input').focus()
}
