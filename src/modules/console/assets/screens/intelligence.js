// The filters the contradictions and gaps screens share: a topic and an entity, read from and
// written to the page's query string (a GET form), so a filtered view is a link.
import { field, h } from '../dom.js'
import { input, select, submit } from '../forms.js'
import { TOPICS } from '../vocabulary.js'

export function filterForm(action, params, extra = []) {
  return h('form', { method: 'get', action, class: 'filters', 'aria-label': 'Filters' },
    field('Topic', select('topic', [['', 'Any topic'], ...TOPICS.map((t) => [t.slug, t.name])], params.get('topic') ?? '')),
    field('Entity', input({ name: 'entity', value: params.get('entity') ?? '', maxlength: '300', placeholder: 'intervention:CHEBI:9168' }), 'type:key, e.g. gene:HGNC:3942.'),
    extra, submit('Filter'))
}

/** The API query for the filters given (empty ones left out). */
export const filterValues = (params, names) => Object.fromEntries(names.map((n) => [n, params.get(n) ?? '']))

export const side = (s) => s ? (s.entity ? `${s.label} (${s.key})` : s.label) : '—'

export const snapshotNote = (meta) => meta?.computed_at
  ? h('p', { class: 'meta' }, `Computed ${meta.computed_at.replace('T', ' ').slice(0, 16)} UTC.`)
  : h('p', { class: 'meta' }, 'Not computed yet: run “Recompute” on the Jobs screen.')
