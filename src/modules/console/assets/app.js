// The console's entry: finds the screen the path names, checks the session (GET /api/auth/me),
// draws the navigation the account's role allows and hands the main landmark to the screen.
import { api, ApiError } from './api.js'
import { announce, begin, h, replace } from './dom.js'

const OPERATOR_NAV = [
  ['/console', 'Overview'], ['/console/review', 'Review'], ['/console/sources', 'Sources'], ['/console/jobs', 'Jobs'], ['/console/briefs', 'Briefs'],
  ['/console/contradictions', 'Contradictions'], ['/console/gaps', 'Gaps'], ['/console/prompts', 'Prompts'],
  ['/console/accounts', 'Accounts'], ['/console/keys', 'My keys'], ['/console/password', 'My password'],
]
const MEMBER_NAV = [['/console/keys', 'My keys'], ['/console/password', 'My password']]

/** path pattern → [screen module, operators only] */
const ROUTES = [
  [/^\/console\/?$/, 'overview', true],
  [/^\/console\/review$/, 'review', true],
  [/^\/console\/sources$/, 'sources', true],
  [/^\/console\/jobs$/, 'jobs', true],
  [/^\/console\/briefs$/, 'briefs', true],
  [/^\/console\/briefs\/(\d+)$/, 'brief', true],
  [/^\/console\/contradictions$/, 'contradictions', true],
  [/^\/console\/gaps$/, 'gaps', true],
  [/^\/console\/prompts$/, 'prompts', true],
  [/^\/console\/prompts\/([a-z0-9_-]+)$/, 'prompt', true],
  [/^\/console\/accounts$/, 'accounts', true],
  [/^\/console\/accounts\/(\d+)$/, 'account', true],
  [/^\/console\/keys$/, 'keys', false],
  [/^\/console\/password$/, 'password', false],
]

function drawChrome(user) {
  const nav = document.getElementById('nav')
  const links = user.role === 'admin' ? OPERATOR_NAV : MEMBER_NAV
  const here = location.pathname.replace(/\/$/, '') || '/console'
  replace(nav, h('ul', {}, links.map(([href, label]) => {
    const current = href === here || (href !== '/console' && here.startsWith(`${href}/`))
    return h('li', {}, h('a', { href, 'aria-current': current ? 'page' : null }, label))
  })))
  const signOut = h('button', { type: 'button', class: 'link-button', on: { click: async () => {
    try {
      await api('POST', '/api/auth/logout', {})
      location.assign('/console/sign-in')
    } catch (error) {
      announce(error.message, 'error')
    }
  } } }, 'Sign out')
  replace(document.getElementById('who'), h('span', {}, `Signed in as ${user.username} (${user.role === 'admin' ? 'operator' : 'member'}) `), signOut)
}


async function start() {
  const main = document.getElementById('main')
  const path = location.pathname
  if (/^\/console\/sign-in\/?$/.test(path)) {
    const screen = await import('./screens/sign-in.js')
    return screen.render(main)
  }
  const route = ROUTES.find(([pattern]) => pattern.test(path))
  let me
  try {
    me = await api('GET', '/api/auth/me')
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return // api() is taking the browser to the sign-in screen
    begin(main, 'The console cannot start')
    main.append(h('p', { role: 'alert' }, error.message))
    return
  }
  const user = me.data.user
  drawChrome(user)
  if (!route) {
    begin(main, 'No such screen')
    return
  }
  const [pattern, name, operatorOnly] = route
  if (operatorOnly && user.role !== 'admin') {
    if (name === 'overview') return location.replace('/console/keys')
    begin(main, 'For operators only', 'This screen is for operators. Members manage their API keys under My keys.')
    return
  }
  const screen = await import(`./screens/${name}.js`)
  try {
    await screen.render(main, { user, session: me.data.session, match: pattern.exec(path), params: new URLSearchParams(location.search) })
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return
    main.append(h('p', { role: 'alert', class: 'message error' }, error.message))
  }
}

start()
