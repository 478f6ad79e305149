// Contradictions (GET /api/intelligence/contradictions), filtered by topic and entity.
import { get, query } from '../api.js'
import { append, begin, externalLink, h, nextPageLink } from '../dom.js'
import { filterForm, filterValues, side, snapshotNote } from './intelligence.js'
import { chartFigure } from '../charts.js'

const claim = (c) => `${c.subject.text} — ${c.relation.replaceAll('_', ' ')} — ${c.object.text}${c.magnitude ? ` (${c.magnitude})` : ''}`
const papers = (n) => `${n} paper${n === 1 ? '' : 's'}`
const paper = (p) => h('span', {}, p.site_url ? externalLink(p.site_url, p.title) : p.title, ` (${p.journal ?? 'unknown journal'}, ${p.published_date ?? p.indexed_date})`)

export async function render(main, { params }) {
  begin(main, 'Contradictions', 'Papers whose claims about the same subject and object, in the same organism, point opposite ways.')
  append(main, filterForm('/console/contradictions', params))
  const q = query({ ...filterValues(params, ['topic', 'entity']), cursor: params.get('cursor'), limit: 20 })
  const page = await get(`/api/intelligence/contradictions${q}`)
  append(main, snapshotNote(page.meta))
  if (page.data.length === 0) append(main, h('p', {}, 'No contradictions match.'))
  // The page's groups as one chart the service draws: claims for an increase and for a decrease in each.
  else append(main, chartFigure((await get(`/api/intelligence/charts/contradictions${q}`)).data))
  append(main, h('ol', { class: 'cards' }, page.data.map((group) => h('li', { class: 'card' },
    h('h2', {}, `${side(group.subject)} → ${side(group.object)}`),
    h('p', { class: 'meta' }, `Score ${group.score.toFixed(2)} · ${papers(group.papers.increase)} for an increase, ${papers(group.papers.decrease)} for a decrease · `,
      `in ${group.organisms.map((o) => o.name).join(', ') || '—'} · topics ${group.topics.join(', ') || '—'}`),
    h('ul', {}, group.pairs.map((pair) => h('li', {},
      h('p', {}, h('strong', {}, 'Increase: '), claim(pair.increase.claim), ' — ', paper(pair.increase.paper)),
      h('p', {}, h('strong', {}, 'Decrease: '), claim(pair.decrease.claim), ' — ', paper(pair.decrease.paper)))))))),
  nextPageLink(page.pagination))
}
