/** Bodies and answers of /api/auth. */
import { t } from 'elysia'
import { stringField } from '../../../http/json-body'
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../../accounts/accounts'
import { DateTime, User } from '../schemas'

export const loginBody = {
  username: stringField("The account's username (case-insensitive).", { max: 64 }),
  password: stringField("The account's password.", { max: MAX_PASSWORD_LENGTH }),
}

export const LoginAnswer = t.Object({ data: t.Object({ user: User }) })

export const SessionInfo = t.Object({
  created_at: DateTime,
  expires_at: t.String({ format: 'date-time', description: 'The absolute end (SESSION_MAX_HOURS after login).' }),
  idle_expires_at: t.String({
    format: 'date-time',
    description: 'The end if no request comes before it (SESSION_IDLE_MINUTES).',
  }),
})

export const MeAnswer = t.Object({ data: t.Object({ user: User, session: SessionInfo }) })

export const LogoutAnswer = t.Object({ data: t.Object({ logged_out: t.Literal(true) }) })

/** A new password, as a change or an operator's reset takes it. */
export const newPasswordField = (description: string) =>
  stringField(`${description} ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`, {
    min: MIN_PASSWORD_LENGTH,
    max: MAX_PASSWORD_LENGTH,
  })

export const passwordChangeBody = {
  current_password: stringField("The account's password now.", { max: MAX_PASSWORD_LENGTH }),
  new_password: newPasswordField('The password from now on, different from the current one:'),
}

export const PasswordChangeAnswer = t.Object({
  data: t.Object({
    password_changed: t.Literal(true),
    sessions_ended: t.Integer({ minimum: 0, description: "The account's other sessions, ended by the change." }),
  }),
})
