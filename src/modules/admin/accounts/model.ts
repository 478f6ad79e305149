/** Bodies, parameters and answers of /api/accounts (operators). */
import { t } from 'elysia'
import { enumField, optional, stringField } from '../../../http/json-body'
import {
  MAX_PASSWORD_LENGTH,
  MEMBERSHIPS,
  MIN_PASSWORD_LENGTH,
  ROLES,
  type Membership,
  type Role,
} from '../../../accounts/accounts'
import { listParam, pagingParams, type Param } from '../../../http/params'
import { newPasswordField } from '../auth/model'
import { DateTime, Enum, Integer, Nullable, Pagination } from '../schemas'

export const newAccountBody = {
  username: stringField('3 to 64 letters, digits, ".", "_" or "-"; unique without regard to case.', {
    min: 3,
    max: 64,
    pattern: /^[A-Za-z0-9_.-]+$/,
    patternRule: 'must be letters, digits, ".", "_" or "-"',
  }),
  password: stringField(`At least ${MIN_PASSWORD_LENGTH} characters.`, {
    min: MIN_PASSWORD_LENGTH,
    max: MAX_PASSWORD_LENGTH,
  }),
  role: enumField('admin (operator) or member (paid account holder).', ROLES),
  membership: optional(
    enumField('Paid membership status; active by default. Member keys work only while it is active.', MEMBERSHIPS),
  ),
}

export const accountPatchBody = {
  membership: enumField(
    "Paid membership status. Lapsed: the account's member-tier keys are refused (403 plan_required) within 2 seconds.",
    MEMBERSHIPS,
  ),
}

export const accountListParams = {
  role: listParam('Only accounts of these roles.', ROLES) as Param<Role[]>,
  membership: listParam('Only accounts with these membership statuses.', MEMBERSHIPS) as Param<Membership[]>,
  ...pagingParams,
}

export const AccountItem = t.Object({
  id: Integer({ minimum: 1 }),
  username: t.String(),
  role: Enum(ROLES),
  membership: Enum(MEMBERSHIPS),
  created_at: DateTime,
  disabled: t.Boolean({
    description: 'Disabled by an operator: no login, no session, its API keys refused (401 revoked_key).',
  }),
  disabled_at: Nullable(t.String({ format: 'date-time', description: 'Since when it is disabled.' })),
})

export const AccountAnswer = t.Object({ data: AccountItem })
export const AccountList = t.Object({ data: t.Array(AccountItem), pagination: Pagination })

export const passwordResetBody = { new_password: newPasswordField("The account's password from now on:") }

export const SessionsEnded = t.Object({
  sessions_ended: t.Integer({ minimum: 0, description: "How many of the account's sessions ended." }),
})
export const SessionsEndedAnswer = t.Object({ data: SessionsEnded })
export const AccessAnswer = t.Object({
  data: t.Object({ account: AccountItem, sessions_ended: SessionsEnded.properties.sessions_ended }),
})
