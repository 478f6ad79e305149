// API keys as both key screens show them: a table with a revoke button each (DELETE /api/keys/{id}),
// and the plain key of a key just made, shown once.
import { api } from '../api.js'
import { announce, formatTime, h, table } from '../dom.js'
import { confirmButton } from '../forms.js'

export function keyTable(caption, keys, refresh) {
  return table(caption, ['Key id', 'Label', 'Tier', 'Created', 'Last used', 'State', 'Actions'],
    keys.map((key) => [h('code', {}, `grk_${key.id}`), key.label ?? '—', key.tier, formatTime(key.created_at), formatTime(key.last_used_at),
      key.revoked ? `revoked ${formatTime(key.revoked_at)}` : 'active',
      key.revoked ? '—' : confirmButton(`Revoke grk_${key.id}`, `Confirm: revoke grk_${key.id}`, async () => {
        await api('DELETE', `/api/keys/${encodeURIComponent(key.id)}`)
        announce(`Key grk_${key.id} revoked: the Data API refuses it within 2 seconds.`)
        await refresh()
      })]))
}

/** The key itself, in a read-only field to copy from: the service keeps only its hash. */
export function newKeyNotice(created) {
  return h('div', { class: 'card notice', id: 'new-key' },
    h('h2', {}, `New ${created.tier} key grk_${created.id}`),
    h('p', {}, 'Copy it now: it is shown only once. Send it as “Authorization: Bearer <key>” to /api/v1.'),
    h('label', { for: 'new-key-value' }, 'The key'),
    h('input', { id: 'new-key-value', readonly: true, value: created.key, class: 'key-value', spellcheck: 'false' }))
}
