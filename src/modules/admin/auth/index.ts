/** POST /api/auth/login, POST /api/auth/logout, GET /api/auth/me. */
import { Elysia } from 'elysia'
import { openApiBody, parseBody } from '../../../http/json-body'
import type { AdminContext } from '../context'
import { documented, errors } from '../schemas'
import { clearedSessionCookie, secureCookies, sessionCookie, sessionToken } from './cookie'
import { LoginAnswer, LogoutAnswer, MeAnswer, loginBody } from './model'
import { logIn, serializeSession, serializeUser } from './service'
import { endSession, type SessionPolicy } from '../../../accounts/sessions'

export const authModule = ({ db, config, now, caller }: AdminContext, policy: SessionPolicy) =>
  new Elysia({ name: 'admin-auth' })
    .post('/api/auth/login', async ({ request, body, set }) => {
      const credentials = parseBody(request, body, loginBody)
      const { token, session } = await logIn(db, credentials, sessionToken(request), now(), policy)
      set.headers['set-cookie'] = sessionCookie(token, Math.floor(policy.maxMs / 1000), secureCookies(request, config.publicBaseUrl))
      return { data: { user: serializeUser(session.account) } }
    }, {
      response: { 200: documented(LoginAnswer), ...errors(400, 401, 429) },
      detail: {
        summary: 'Log in',
        description: 'Checks the username and password and starts a session: the answer sets the `geroscope_session` cookie ' +
          '(HttpOnly, SameSite=Lax, Path=/api, Secure over https). A wrong username and a wrong password get the same 401 ' +
          'invalid_credentials. Every login starts a new session; a session cookie sent with the login is ignored, and that ' +
          'session ended. Counts against the client address\'s limit (10 a minute), as every request without a session does. ' +
          'Failed logins also count per username, whether or not an account has it: after 5 in a row the name is locked for ' +
          '30 s, doubling with each further failure up to 15 minutes, and every login for it meanwhile is a 429 with Retry-After ' +
          '(right password or not) unless it carries a live session cookie of that account; a success or an hour without a ' +
          'failure ends the streak.',
        security: [],
        requestBody: openApiBody(loginBody) as never,
      },
    })
    .post('/api/auth/logout', async ({ request, body, set }) => {
      caller(request)
      parseBody(request, body, {})
      await endSession(db, sessionToken(request)!)
      set.headers['set-cookie'] = clearedSessionCookie(secureCookies(request, config.publicBaseUrl))
      return { data: { logged_out: true as const } }
    }, {
      response: { 200: documented(LogoutAnswer), ...errors(400) },
      detail: {
        summary: 'Log out',
        description: 'Ends the session at once (its cookie, sent again, is refused with 401) and clears the cookie. Takes no body fields.',
        requestBody: openApiBody({}) as never,
      },
    })
    .get('/api/auth/me', ({ request }) => {
      const session = caller(request)
      return { data: { user: serializeUser(session.account), session: serializeSession(session) } }
    }, {
      response: { 200: documented(MeAnswer), ...errors() },
      detail: {
        summary: 'The signed-in user',
        description: 'The account behind the session cookie, and when the session ends: at `idle_expires_at` unless another request ' +
          'comes first (each request moves it), and at `expires_at` whatever happens.',
      },
    })
