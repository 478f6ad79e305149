/** POST /api/auth/login, POST /api/auth/logout, GET /api/auth/me, POST /api/auth/password. */
import { Elysia } from 'elysia'
import { openApiBody, parseBody } from '../../../http/json-body'
import type { AdminContext } from '../context'
import { documented, errors } from '../schemas'
import { clearedSessionCookie, secureCookies, sessionCookie, sessionToken } from './cookie'
import { LoginAnswer, LogoutAnswer, MeAnswer, PasswordChangeAnswer, loginBody, passwordChangeBody } from './model'
import { changePassword } from './password'
import { logIn, serializeSession, serializeUser } from './service'
import { endSession, type SessionPolicy } from '../../../accounts/sessions'

export const authModule = ({ db, config, now, caller }: AdminContext, policy: SessionPolicy) =>
  new Elysia({ name: 'admin-auth' })
    .post(
      '/api/auth/login',
      async ({ request, body, set }) => {
        const credentials = parseBody(request, body, loginBody)
        const { token, session } = await logIn(db, credentials, sessionToken(request), now(), policy)
        set.headers['set-cookie'] = sessionCookie(
          token,
          Math.floor(policy.maxMs / 1000),
          secureCookies(request, config.publicBaseUrl),
        )
        return { data: { user: serializeUser(session.account) } }
      },
      {
        response: { 200: documented(LoginAnswer), ...errors(400, 401, 429) },
        detail: {
          summary: 'Log in',
          description:
            'Checks the username and password and starts a session: the answer sets the `geroscope_session` cookie ' +
            '(HttpOnly, SameSite=Lax, Path=/api, Secure over https). A wrong username and a wrong password get the ' +
            'same 401 invalid_credentials. Every login starts a new session; a session cookie sent with the login is ' +
            'ignored, and that ' +
            "session ended. Counts against the client address's limit (10 a minute), as every request without a " +
            'session does. ' +
            'Failed logins also count per username, whether or not an account has it: after 5 in a row the name is ' +
            'locked for 30 s, doubling with each further failure up to 15 minutes, and every login for it meanwhile ' +
            'is a 429 with Retry-After (right password or not) unless it carries a live session cookie of that ' +
            'account; a success or an hour without a failure ends the streak.',
          security: [],
          requestBody: openApiBody(loginBody) as never,
        },
      },
    )
    .post(
      '/api/auth/logout',
      async ({ request, body, set }) => {
        caller(request)
        parseBody(request, body, {})
        await endSession(db, sessionToken(request)!)
        set.headers['set-cookie'] = clearedSessionCookie(secureCookies(request, config.publicBaseUrl))
        return { data: { logged_out: true as const } }
      },
      {
        response: { 200: documented(LogoutAnswer), ...errors(400) },
        detail: {
          summary: 'Log out',
          description:
            'Ends the session at once (its cookie, sent again, is refused with 401) and clears the cookie. Takes no ' +
            'body fields.',
          requestBody: openApiBody({}) as never,
        },
      },
    )
    .get(
      '/api/auth/me',
      ({ request }) => {
        const session = caller(request)
        return { data: { user: serializeUser(session.account), session: serializeSession(session) } }
      },
      {
        response: { 200: documented(MeAnswer), ...errors() },
        detail: {
          summary: 'The signed-in user',
          description:
            'The account behind the session cookie, and when the session ends: at `idle_expires_at` unless another ' +
            'request comes first (each request moves it), and at `expires_at` whatever happens.',
        },
      },
    )
    .post(
      '/api/auth/password',
      async ({ request, body }) => {
        const session = caller(request)
        const fields = parseBody(request, body, passwordChangeBody)
        return { data: await changePassword(db, session, sessionToken(request)!, fields, now()) }
      },
      {
        response: { 200: documented(PasswordChangeAnswer), ...errors(400, 401, 429) },
        detail: {
          summary: 'Change your password',
          description:
            'Sets a new password for the signed-in account, given the current one. Every other session ' +
            'of the account ends at once (their cookies are refused with 401); the session that made the change goes ' +
            'on. A wrong `current_password` is a 401 invalid_credentials that leaves the session alive, and counts ' +
            "against the username's failed-login budget like a failed login (see POST /api/auth/login: a 429 with " +
            'Retry-After once it is spent). A `new_password` shorter than 10 or longer than 1024 characters, or the ' +
            'same as the current one, is a 400 invalid_parameter naming it.',
          requestBody: openApiBody(passwordChangeBody) as never,
        },
      },
    )
