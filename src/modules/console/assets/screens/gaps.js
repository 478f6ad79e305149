// Knowledge gaps (GET /api/intelligence/gaps), filtered by topic, entity and kind.
import { get, query } from '../api.js'
import { append, begin, externalLink, field, h, nextPageLink } from '../dom.js'
import { select } from '../forms.js'
import { chartFigure } from '../charts.js'
import { GAP_KINDS } from '../vocabulary.js'
import { filterForm, filterValues, side, snapshotNote } from './intelligence.js'

export async function render(main, { params }) {
  begin(main, 'Knowledge gaps', 'What the literature has not settled: untested interventions, single-paper findings, fading attention.')
  const kind = field('Kind', select('kind', [['', 'Any kind'], ...GAP_KINDS.map((k) => [k, k.replaceAll('_', ' ')])], params.get('kind') ?? ''))
  append(main, filterForm('/console/gaps', params, [kind]))
  const q = query({ ...filterValues(params, ['topic', 'entity', 'kind']), cursor: params.get('cursor'), limit: 20 })
  const page = await get(`/api/intelligence/gaps${q}`)
  // Declining-attention gaps carry their papers per period: drawn by the service as sparklines, for the same page.
  const charts = page.data.some((gap) => gap.series) ? (await get(`/api/intelligence/charts/gaps${q}`)).data : []
  const sparkline = (gap) => charts.find((c) => c.gap_id === gap.id)
  append(main, snapshotNote(page.meta))
  if (page.data.length === 0) append(main, h('p', {}, 'No gaps match.'))
  append(main, h('ol', { class: 'cards' }, page.data.map((gap) => h('li', { class: 'card' },
    h('h2', {}, gap.title),
    h('p', { class: 'meta' }, `${gap.kind.replaceAll('_', ' ')} · score ${gap.score.toFixed(2)} · topics ${gap.topics.join(', ') || '—'}`,
      gap.subject ? ` · ${side(gap.subject)}${gap.object ? ` → ${side(gap.object)}` : ''}` : ''),
    h('p', {}, gap.explanation),
    sparkline(gap) ? chartFigure(sparkline(gap)) : null,
    gap.papers.length ? h('ul', {}, gap.papers.map((p) => h('li', {}, p.site_url ? externalLink(p.site_url, p.title) : p.title))) : null))),
  nextPageLink(page.pagination))
}
