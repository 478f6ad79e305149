/** Bodies and answers of /api/keys (a caller's own keys) and /api/accounts/{id}/keys (an operator's view). */
import { t } from 'elysia'
import { enumField, optional, stringField } from '../../../http/json-body'
import { TIERS } from '../../../accounts/keys'
import { DateTime, Enum, Nullable } from '../schemas'

const label = optional(stringField('A name for the key, to tell keys apart (e.g. where it is used).', { max: 100 }))

export const ownKeyBody = { label }
export const accountKeyBody = {
  tier: optional(enumField("The key's tier; pro by default (operators hand out pro keys).", TIERS)),
  label,
}

export const KeyItem = t.Object({
  id: t.String({ pattern: '^[0-9A-Za-z]{8}$', description: 'The public key id: the 8 characters after "grk_".' }),
  label: Nullable(t.String()),
  tier: Enum(TIERS),
  created_at: DateTime,
  last_used_at: Nullable(t.String({ format: 'date-time', description: 'Written every few seconds, not per request.' })),
  revoked: t.Boolean(),
  revoked_at: Nullable(DateTime),
})

export const NewKey = t.Object({
  ...KeyItem.properties,
  key: t.String({
    pattern: '^grk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$',
    description: 'The key itself, shown only in this answer: only a hash is kept.',
  }),
})

export const NewKeyAnswer = t.Object({ data: NewKey })
export const KeyAnswer = t.Object({ data: KeyItem })
export const KeyList = t.Object({ data: t.Array(KeyItem) })
